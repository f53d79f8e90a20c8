/**
 * Step 3 of an order import, writing: checked orders inserted batch by batch inside the
 * import's transaction, each with a fresh code, then their per-day counters and ledger
 * charges once every batch is in (orders.service.ts insertFresh / recordInserted).
 */
import type { Db } from '../../../db/index.ts';
import type { Operator } from '../../../http/route-context.ts';
import type { OrderValues } from '../orders.rules.ts';
import { insertFresh, recordInserted, type InsertedOrder } from '../orders.service.ts';

export interface BatchWriter {
  /** Writes a checked batch, unless a row was rejected under all or nothing (it all rolls back then). */
  write(valid: readonly OrderValues[]): Promise<void>;
  /** How many orders were written. */
  count(): number;
  /** The counters and charges of every written order, once every batch is in. */
  finish(): Promise<void>;
}

export function batchWriter(trx: Db, op: Operator, now: number, keepValid: boolean, rejected: readonly unknown[]): BatchWriter {
  const written: InsertedOrder[] = [];
  return {
    async write(valid) {
      // Once a row is rejected under all or nothing, nothing more is written (it all rolls back).
      if (valid.length > 0 && (keepValid || rejected.length === 0)) written.push(...(await insertFresh(trx, valid, op, now)));
    },
    count: () => written.length,
    finish: () => recordInserted(trx, written, op, now),
  };
}
