import type { OrderItem } from '@clearplay/contract';
import type { Permission } from '@clearplay/contract';
import type { TFunction } from 'i18next';
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

/** What the orders page lets a reader do, in the order its subtitle names them. */
export type InspectAction = 'search' | 'create' | 'import' | 'export' | 'edit' | 'download';
const INSPECT_ACTIONS: ReadonlyArray<[InspectAction, Permission]> = [
  ['search', 'order:view'],
  ['create', 'order:create'],
  ['import', 'order:import'],
  ['export', 'order:export'],
  ['edit', 'order:update'],
  ['download', 'order:download'],
];

/** The actions the actor's permissions allow: the orders page's subtitle promises only these. */
export function inspectActions(actor: Actor | null): InspectAction[] {
  return INSPECT_ACTIONS.filter(([, permission]) => can(actor, permission)).map(([action]) => action);
}

/** The orders page's subtitle: the actor's own actions, joined as a list in `language`. */
export function inspectDescription(actor: Actor | null, t: TFunction, language: string): string {
  const actions = inspectActions(actor).map((action) => t(`page.inspect.action.${action}`));
  return t('page.inspect.description', { actions: new Intl.ListFormat(language, { type: 'conjunction' }).format(actions) });
}
