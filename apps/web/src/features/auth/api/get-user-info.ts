import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@clearplay/contract';
import { sessionEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

export const userInfoQueryKey = ['auth', 'user-info'] as const;

/**
 * GET /api/admin/user/info. Spec §4/§8: the logged-out dialog is skipped for this call; the
 * route guard handles its failure (logout, then login with a redirect).
 */
export const getUserInfo = (signal?: AbortSignal): Promise<CurrentUser> => api.call(sessionEndpoints.info, { signal, session: 'guard' });

/** Loaded once per session: never stale, dropped on logout. */
export const userInfoQueryOptions = () =>
  queryOptions({
    queryKey: userInfoQueryKey,
    queryFn: ({ signal }) => getUserInfo(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });

export const useUserInfo = () => useQuery(userInfoQueryOptions());
