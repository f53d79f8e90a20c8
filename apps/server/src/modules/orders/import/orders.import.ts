/**
 * Order import (docs/product.md "Orders"): an xlsx or csv file, one order per row under a header
 * row in Chinese or English. Every row goes through the same checks as a created order
 * (orders.service.ts `checkOrder`); the answer lists every rejected row with all its reasons.
 * All or nothing unless the caller keeps the valid rows.
 *
 * The steps, one file each under import/: upload.ts (the multipart body), read.ts (the sheet
 * as rows), check.ts (rows as checked orders), write.ts (orders, counters, charges),
 * report.ts (rejected rows); template.ts is the file users fill in. This file runs them, on
 * the import's worker thread (thread.ts, worker.ts; decision 0093).
 */
import type { OrderImportResult } from '@clearplay/contract';
import { dialectOf } from '../../../db/dialect.ts';
import { writeTransaction } from '../../../db/write-transaction.ts';
import type { Db } from '../../../db/index.ts';
import type { Operator } from '../../../http/route-context.ts';
import { AppError } from '../../../lib/errors.ts';
import type { Locale } from '../../../lib/messages.ts';
import { nowMs } from '../../../lib/time.ts';
import { answerIn, claimIn, type Guard } from '../../idempotency/idempotency.service.ts';
import { batchChecker, mapHeaders } from './check.ts';
import { importHistory } from './history.ts';
import { IMPORT_MAX_ROWS, isBlank, type Sheet, type SheetRow } from './read.ts';
import { importReport } from './report.ts';
import { batchWriter } from './write.ts';
import { loadImportVocabulary } from '../files/orders.sheet.ts';

/** Rows checked and written together; the sheet parser reads on while a batch is written. */
const IMPORT_BATCH = 1000;

/** Ends the import's transaction without writing (all or nothing, and a row was rejected). */
class RejectedImport {
  constructor(readonly result: OrderImportResult) {}
}

/**
 * Checks every row against the rules of orders.service.ts and writes the valid ones (all of
 * them only when no row is rejected, unless keepValid) with their counters and ledger charges,
 * in one transaction. Rows go in batches: while one batch is written, the parser reads the
 * next and (on PostgreSQL and MySQL, whose look-ups use a second connection) it is checked. When
 * all or nothing is asked and a row is rejected, what was written rolls back and the answer
 * lists the rejected rows. People and prices are looked up once per name, as batches name them.
 * With a `guard` (an Idempotency-Key, decision 0109), the key is the transaction's first
 * statement and the answer its last: an import that writes nothing (refused, or all or nothing
 * with a rejected row) stores no answer, so the same file sent again runs again.
 */
export async function importOrders(
  db: Db,
  sheet: Sheet,
  op: Operator,
  locale: Locale,
  keepValid: boolean,
  guard: Guard | null = null,
): Promise<OrderImportResult> {
  const at = mapHeaders(sheet.headers, locale);

  try {
    return await writeTransaction(
      db,
      async (trx) => {
        const now = nowMs();
        if (guard !== null) await claimIn(trx, guard, now);
        const vocabulary = await loadImportVocabulary(trx);
        const report = importReport(sheet.headers, at, locale);
        // On PostgreSQL and MySQL the look-ups go through another connection of the pool, so the
        // next batch is looked up and checked while the transaction's connection inserts this
        // one. SQLite has one connection, and it is the transaction's.
        const lookups = dialectOf(db) === 'sqlite' ? trx : db;
        const check = batchChecker({ lookups, headers: sheet.headers, at, vocabulary, op, now, report });
        const history = importHistory(lookups, op);
        const writer = batchWriter(trx, op, now, keepValid, report.rejected);
        const { rejected } = report;

        // Two chains: batches are checked one after another, and written one after another, each
        // write once its batch is checked and the batch before it is written.
        let checked: Promise<unknown> = Promise.resolve();
        let work: Promise<void> = Promise.resolve();
        let failed = false;
        let batch: SheetRow[] = [];
        const handOver = () => {
          const next = batch;
          batch = [];
          const valid = checked.then(() => check(next)).then((rows) => history.apply(rows));
          checked = valid;
          work = Promise.all([work, valid]).then(([, rows]) => writer.write(rows));
          // Seen here so a failure is not "unhandled" while the parser reads on; awaited below.
          work.catch(() => (failed = true));
        };
        let total = 0;
        try {
          for await (const row of sheet.rows) {
            if (failed) break;
            if (row.cells.every(isBlank)) continue;
            if (++total > IMPORT_MAX_ROWS) throw new AppError(400, 'orderImport.tooManyRows', { max: IMPORT_MAX_ROWS });
            batch.push(row);
            if (batch.length >= IMPORT_BATCH) handOver();
          }
        } catch (error) {
          // The limit, or a file the parser could not read to its end (an unclosed quote, a damaged
          // workbook): the batches already under way finish before the transaction rolls back.
          await work.catch(() => undefined);
          throw error;
        }
        if (batch.length > 0) handOver();
        await work;

        if (total === 0) throw new AppError(400, 'orderImport.noRows');
        if (!keepValid && rejected.length > 0) throw new RejectedImport({ total, imported: 0, rejected, keepValid, ...history.report() });
        await writer.finish();
        const result: OrderImportResult = { total, imported: writer.count(), rejected, keepValid, ...history.report() };
        if (guard !== null) await answerIn(trx, guard, result);
        return result;
      },
      { bulk: true },
    );
  } catch (error) {
    if (error instanceof RejectedImport) return error.result;
    throw error;
  }
}
