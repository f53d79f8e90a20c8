import type { MessageItem } from '@clearplay/contract';

/** Paths the message box opens (config/paths.ts has their routes). */
export const MESSAGE_PAGE_PATH = '/user/message';
const INSPECT_PATH = '/order/inspect';
const USERS_PATH = '/system/user';

/**
 * Where an item leads, for the reader `userId`: an order opens its detail on the order screen
 * (`?detail=<id>`); a renewal todo (another user's subscription) the user list where staff
 * renew; an announcement the notices of the full page. A message about the reader's own
 * subscription or balance leads nowhere yet (null): it says all there is to say.
 */
export function targetPath(item: Pick<MessageItem, 'target'>, userId: number | undefined): string | null {
  const target = item.target;
  if (target === null) return null;
  switch (target.type) {
    case 'order':
      return target.id === null ? INSPECT_PATH : `${INSPECT_PATH}?detail=${target.id}`;
    case 'announcement':
      return `${MESSAGE_PAGE_PATH}?type=notice`;
    case 'subscription':
    case 'ledger':
      return target.id !== null && target.id !== userId ? USERS_PATH : null;
  }
}
