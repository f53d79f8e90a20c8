import { useMutation } from '@tanstack/react-query';
import { logoutRequest, logoutMutationKey } from '../features/auth/api/logout.ts';
import { resetUser } from '../lib/current-user.ts';
import { clearDicts } from '../lib/dicts.ts';
import { sessionEnding } from '../lib/api-client.ts';
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
  if (callServer) await endServerSession();
  clearSession();
}

/** Ends the session on the server when there is one; a failed call (its toast already showed) changes nothing here. */
async function endServerSession(): Promise<void> {
  // From here on, this session's 401s (calls still in flight) are expected and send no one anywhere.
  const token = getToken();
  sessionEnding(token);
  try {
    if (token) await logoutRequest();
  } catch {
    // The client logs out regardless.
  }
}

/**
 * For the navbar: end the session on the server, leave the signed-in screens (`leave`: go to
 * /login), then clear everything. Leaving first matters: a screen still mounted when the cache
 * is cleared fetches again without a token, and its 401 would send the page to the root.
 */
export const useLogout = (leave: () => Promise<void> | void) =>
  useMutation({
    mutationKey: logoutMutationKey,
    mutationFn: async () => {
      await endServerSession();
      try {
        await leave();
      } finally {
        clearSession();
      }
    },
  });
