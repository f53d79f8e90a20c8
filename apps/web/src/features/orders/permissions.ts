import type { OrderItem } from '@clearplay/contract';
import { can, type Actor } from '../../lib/permissions.ts';

/**
 * May the actor open the edit form of `order`? order:update is needed; without
 * order:update:any (inspectors) only for the orders they inspected. A reduced public view is
 * never editable. The server checks the same rules on every call.
 */
export function canEditOrder(actor: Actor | null, order: Pick<OrderItem, 'inspectorId' | 'view'>): boolean {
  if (!actor || order.view !== 'full' || !can(actor, 'order:update')) return false;
  return can(actor, 'order:update:any') || order.inspectorId === actor.id;
}
