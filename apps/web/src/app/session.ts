import { useMutation } from '@tanstack/react-query';
import { logoutRequest, logoutMutationKey } from '../features/auth/api/logout.ts';
import { resetUser } from '../lib/current-user.ts';
import { clearDicts } from '../lib/dicts.ts';
import { queryClient } from '../lib/query-client.ts';
import { clearServerMenu } from '../lib/settings.ts';
import { getToken, removeToken } from '../lib/storage.ts';
import { removeRouteListener } from '../lib/route-listener.ts';

/**
 * Spec §4 logout, client side: reset the user, remove the token, clear the dictionaries,
 * clear the server menu, unsubscribe the route-change listeners. The rest of the query
 * cache goes too, so nothing of one user's data is shown to the next.
 */
export function clearSession(): void {
  resetUser();
  removeToken();
  clearDicts();
  clearServerMenu();
  removeRouteListener();
  queryClient.clear();
}

/**
 * Logout: tell the server (when there is a session to end), then clear everything even if
 * that call fails. `callServer: false` when the server already said the session is over.
 */
export async function logout({ callServer = true }: { callServer?: boolean } = {}): Promise<void> {
  try {
    if (callServer && getToken()) await logoutRequest();
  } catch {
    // The call failed (its toast already showed); the client logs out regardless.
  } finally {
    clearSession();
  }
}

/** For the navbar: logout then `onDone` (go to /login). */
export const useLogout = (onDone: () => void) =>
  useMutation({
    mutationKey: logoutMutationKey,
    mutationFn: () => logout(),
    onSettled: onDone,
  });
