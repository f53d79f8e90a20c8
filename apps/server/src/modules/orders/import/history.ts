/**
 * The target history in an import (decision 0059): a row whose "changed MAC" cell is
 * empty gets the proposal the order form makes (on when the latest earlier record of its chat
 * ID, in the database or earlier in the file, was on another machine), and the import counts
 * the rows with a MAC change and the rows on a machine known under another chat ID. Only the
 * records the importer may see count (the order list's rules). One look-up per batch.
 */
import { proposeChangedMac } from '@clearplay/contract';
import type { Db } from '../../../db/index.ts';
import type { Operator } from '../../../http/route-context.ts';
import { latestMacByKey, machineKeys } from '../history/orders.history.repository.ts';
import { seesAll } from '../orders.rules.ts';
import { chatKeyFor } from '../orders.target-key.ts';
import type { OrderValues } from '../orders.rules.ts';

/** Checked rows whose "changed MAC" cell was empty (check.ts marks them): they take the proposal. */
export const changedMacUnset = new WeakSet<OrderValues>();

export interface ImportHistoryCounts {
  /** Valid rows saved with "changed MAC" on (given or proposed). */
  macChanged: number;
  /** Valid rows whose machine was seen under another chat ID before. */
  knownMachine: number;
}

export function importHistory(lookups: Db, op: Operator) {
  const visibleTo = seesAll(op) ? undefined : op.id;
  /** Latest MAC per chat key and chat keys per MAC, of the rows already seen in this file. */
  const fileMac = new Map<string, string>();
  const fileKeys = new Map<string, Set<string>>();
  const counts: ImportHistoryCounts = { macChanged: 0, knownMachine: 0 };

  async function apply(rows: OrderValues[]): Promise<OrderValues[]> {
    if (rows.length === 0) return rows;
    const keys = rows.map((r) => chatKeyFor(lookups, r.objWechat));
    const [latest, machines] = await Promise.all([
      latestMacByKey(lookups, [...new Set(keys)], visibleTo),
      machineKeys(lookups, [...new Set(rows.map((r) => r.mac))], visibleTo),
    ]);
    return rows.map((row, i) => {
      const key = keys[i]!;
      const previous = fileMac.get(key) ?? latest.get(key) ?? null;
      const out = changedMacUnset.has(row) ? { ...row, ifChangedMac: proposeChangedMac(previous, row.mac) ?? 0 } : row;
      const seenUnder = new Set([...(machines.get(row.mac) ?? []), ...(fileKeys.get(row.mac) ?? [])]);
      seenUnder.delete(key);
      if (out.ifChangedMac === 1) counts.macChanged++;
      if (seenUnder.size > 0) counts.knownMachine++;
      fileMac.set(key, row.mac);
      fileKeys.set(row.mac, (fileKeys.get(row.mac) ?? new Set()).add(key));
      return out;
    });
  }

  /** The report's part: left out when no row changed MAC nor sat on a known machine (the report then reads as before the target history). */
  const report = (): { history?: ImportHistoryCounts } =>
    counts.macChanged === 0 && counts.knownMachine === 0 ? {} : { history: { ...counts } };

  return { apply, report };
}
