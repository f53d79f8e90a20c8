import {
  normalizeMac,
  proposeChangedMac,
  type HistoryRecord,
  type OrderHistory,
  type OrderHistoryQuery,
  type OrderItem,
  type OrderResult,
} from '@clearplay/contract';
import { textFilter } from '../../../db/text-search.ts';
import type { Db } from '../../../db/index.ts';
import type { Operator } from '../../../http/route-context.ts';
import { AppError, FieldAppError } from '../../../lib/errors.ts';
import { toIso } from '../../../lib/time.ts';
import * as repo from './orders.history.repository.ts';
import type { OrderWithNamesRow } from '../orders.repository.ts';
import { displayName, seesAll } from '../orders.rules.ts';
import { visibleOrder } from '../orders.service.ts';
import type { LogPart } from '../../../lib/log-text.ts';

/**
 * Target history (decision 0059): what the service remembers of a chat ID and a
 * machine, exactly as the order list lets the caller see it. A shop sees its own records and
 * other shops' public ones; another shop's private record is never read, so it cannot show in
 * a list, a count or the proposal. The shop and inspector of a record are for staff only.
 */

function toRecord(row: OrderWithNamesRow, staff: boolean): HistoryRecord {
  return {
    id: Number(row.id),
    objWechat: row.objWechat,
    createdTime: toIso(Number(row.createdAt)),
    gameName: row.gameName,
    result: row.result as OrderResult,
    mac: row.mac,
    ifChangedMac: row.ifChangedMac === 1 ? 1 : 0,
    userName: staff ? displayName(row.clientNickname, row.clientUsername) : null,
    inspectorName: staff ? displayName(row.inspectorNickname, row.inspectorUsername) : null,
  };
}

/** The MAC of a query in normal form; 400 naming the field when it is not a MAC in an accepted spelling. */
function macOf(text: string | undefined): string | undefined {
  const trimmed = textFilter(text);
  if (trimmed === undefined) return undefined;
  const mac = normalizeMac(trimmed);
  if (mac === null) throw new FieldAppError(400, 'mac', 'order.mac', { value: trimmed.slice(0, 40) });
  return mac;
}

export async function orderHistory(db: Db, query: OrderHistoryQuery, op: Operator): Promise<OrderHistory> {
  let objWechat = textFilter(query.objWechat);
  let mac = macOf(query.mac);
  const scope: repo.HistoryScope = { visibleTo: seesAll(op) ? undefined : op.id };
  if (query.orderId !== undefined) {
    const order = await visibleOrder(db, query.orderId, op);
    objWechat ??= order.objWechat;
    mac ??= order.mac;
    scope.before = { createdAt: Number(order.createdAt), id: Number(order.id) };
  }
  if (objWechat === undefined && mac === undefined) throw new AppError(400, 'history.needTarget');
  const staff = seesAll(op);
  const key = objWechat === undefined ? undefined : repo.chatKeyFor(db, objWechat);

  // The machines to look at: the one typed, or else every machine the chat ID was recorded on
  // in the records this reader may see (so a shop learns nothing of another shop's private one).
  const onMachines = async (): Promise<[OrderWithNamesRow[], string[]]> => {
    const macs = mac !== undefined ? [mac] : key === undefined ? [] : await repo.targetMachines(db, key, scope);
    return Promise.all([repo.sameMachine(db, macs, key, scope), repo.machineChatIds(db, macs, key, scope)]);
  };
  const [target, counts, [machine, chatIds]] = await Promise.all([
    key === undefined ? [] : repo.sameTarget(db, key, scope),
    key === undefined ? [] : repo.countByResult(db, key, scope),
    onMachines(),
  ]);
  const byResult = { '0': 0, '1': 0, '2': 0, '3': 0 };
  for (const c of counts) {
    const k = String(c.result) as keyof typeof byResult;
    if (k in byResult) byResult[k] += Number(c.n);
  }
  // The latest flagged record is in the listed ones unless the chat ID has more than the list holds.
  let flagged = target.find((r) => r.result === 1 || r.result === 3);
  if (flagged === undefined && key !== undefined && byResult['1'] + byResult['3'] > 0) flagged = await repo.latestFlagged(db, key, scope);

  const previousMac = target[0]?.mac ?? null;
  return {
    objWechat: objWechat ?? null,
    mac: mac ?? null,
    sameTarget: target.map((r) => toRecord(r, staff)),
    sameMachine: machine.map((r) => toRecord(r, staff)),
    summary: {
      byResult,
      latestFlagged: flagged === undefined ? null : toRecord(flagged, staff),
      previousMac,
      macChanged: mac === undefined || previousMac === null ? null : previousMac !== mac,
      otherChatIds: chatIds,
    },
    proposedChangedMac: key === undefined ? null : proposeChangedMac(previousMac, mac ?? null),
  };
}

/**
 * The operation log's note when the inspector overrode the history's "changed MAC" proposal
 * (decision 0059): empty when no proposal was sent or the saved flag follows it.
 */
export function changedMacNote(body: { changedMacProposed?: 0 | 1; ifChangedMac?: 0 | 1 }): LogPart | undefined {
  if (body.changedMacProposed === undefined) return undefined;
  const final = body.ifChangedMac ?? 0;
  return final === body.changedMacProposed
    ? undefined
    : { key: 'log.text.part.changedMac', params: { changedMacFrom: body.changedMacProposed, changedMacTo: final } };
}

/**
 * Marks the list's orders whose chat ID has an earlier cheating record the reader may see,
 * with one grouped query for the whole page, on the 0010 index.
 */
export async function markRepeatTargets(db: Db, list: OrderItem[], op: Operator): Promise<OrderItem[]> {
  const keyOf = (item: OrderItem) => repo.chatKeyFor(db, item.objWechat);
  const first = await repo.firstCheats(db, list.map(keyOf), seesAll(op) ? undefined : op.id);
  return list.map((item) => {
    const at = first.get(keyOf(item));
    return { ...item, repeatTarget: at !== undefined && at < Date.parse(item.createdTime) };
  });
}
