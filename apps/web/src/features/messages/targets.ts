import type { MessageItem } from '@clearplay/contract';

/** Paths the message box opens (config/paths.ts has their routes). */
export const MESSAGE_PAGE_PATH = '/user/message';
const INSPECT_PATH = '/order/inspect';
const USERS_PATH = '/system/user';
const USER_INFO_PATH = '/user/info';

/**
 * Where an item leads, for the reader `userId`: an order opens its detail on the order screen
 * (`?detail=<id>`); a renewal todo (another user's subscription) the user list where staff
 * renew; an announcement the notices of the full page; the reader's own subscription or
 * balance the user centre, which shows both with the ledger.
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
      return target.id !== null && target.id !== userId ? USERS_PATH : USER_INFO_PATH;
  }
}
