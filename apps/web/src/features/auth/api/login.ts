import { useCallback, useState } from 'react';
import type { LoginBody, LoginData } from '@clearplay/contract';
import { api } from '../../../lib/api-client.ts';

/** POST /api/admin/user/login. Part of the session life cycle: no session dialog, no 401 redirect. */
export const login = (body: LoginBody): Promise<LoginData> => api.post<LoginData>('/admin/user/login', body, { session: 'guard' });

/**
 * The login call with its pending state. Deliberately not a TanStack mutation: the login
 * page is the one screen that loads without TanStack Query (first-load budget).
 */
export function useLogin() {
  const [isPending, setPending] = useState(false);
  const mutateAsync = useCallback(async (body: LoginBody) => {
    setPending(true);
    try {
      return await login(body);
    } finally {
      setPending(false);
    }
  }, []);
  return { mutateAsync, isPending };
}
