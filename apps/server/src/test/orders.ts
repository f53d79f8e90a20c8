import type { OrderItem } from '@clearplay/contract';

/**
 * A valid create body for a cheating order of `parties.userId` inspected by
 * `parties.inspectorId` at `parties.amount`, with `overrides` on top.
 */
export const orderBody = (parties: { userId: number; inspectorId: number; amount: number }, overrides: Record<string, unknown> = {}) => ({
  objWechat: 'wx_target',
  objWechatName: 'Target',
  gameName: 'CS2',
  mac: 'aa:bb:cc:dd:ee:0f',
  installationTime: '2026-01-02T03:04:05.000Z',
  result: 1,
  objClientName: 'Their shop',
  ...parties,
  ...overrides,
});

/** The update body that leaves the order as it is (its editable fields), plus the changes. */
export function editBody(order: OrderItem, changes: Record<string, unknown> = {}) {
  const {
    code: _code,
    userName: _userName,
    inspectorName: _inspectorName,
    createdTime: _created,
    updatedTime: _updated,
    view: _view,
    ...fields
  } = order;
  return { ...fields, ...changes };
}
