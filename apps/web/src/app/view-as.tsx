import { useMutation } from '@tanstack/react-query';
import type { CurrentUser } from '@clearplay/contract';
import { RoleName } from '@clearplay/contract/constants';
import { firstPermittedRoute } from '../config/paths.ts';
import { endViewAs, ViewAsBanner } from '../features/view-as/index.ts';
import { useCurrentUser } from '../lib/current-user.ts';
import { clearServerMenu } from '../lib/settings.ts';
import { tabStore } from './layout/tab-store.ts';

/**
 * Switch roles (decision 0060), client side. The view lives on the server's session,
 * so after a switch (either way) the page is loaded afresh at the role's home: the user info,
 * server menu, dictionaries and every cached answer are fetched again as the new role, and no
 * screen, tab or cached row of the previous role is left showing.
 */
function reloadAt(role: string): void {
  tabStore.set([]);
  clearServerMenu();
  window.location.replace(firstPermittedRoute(role)?.path ?? '/');
}

/** After POST /admin/account/view-as answered the viewed session. */
export const enterView = (user: CurrentUser): void => reloadAt(user.role.name);

/**
 * "Switch back": only a super admin views, so the way back is always the super admin's home.
 * Reloaded whatever the answer: a refusal means the view had already ended on the server (the
 * viewed shop was disabled meanwhile), and the fresh page shows the session as it is.
 */
export const useEndView = () =>
  useMutation({
    mutationFn: endViewAs,
    onSettled: () => reloadAt(RoleName.SUPER_ADMIN),
  });

/** The banner over the layout while viewing as another role (inside the layout's query provider). */
export function ViewAsBar() {
  const view = useCurrentUser()?.viewAs;
  const endView = useEndView();
  return view ? <ViewAsBanner view={view} onSwitchBack={() => endView.mutate()} pending={endView.isPending} /> : null;
}
