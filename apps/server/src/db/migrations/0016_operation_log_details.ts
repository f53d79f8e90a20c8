/**
 * FROZEN. Structured facts beside an operation-log row's English line: `operation_logs.details`,
 * a JSON object the route that did the work writes (an order import: rows read, rows written,
 * rows rejected, whether the valid rows were kept), null for the rows of every other call and
 * for every row written before this migration (readers then fall back to the line's text).
 * Nullable, no default: a text column with a default is refused by older MySQL.
 */
import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('operation_logs').addColumn('details', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('operation_logs').dropColumn('details').execute();
}
