/**
 * FROZEN. Idempotency keys (issue 24, decision 0109): a create whose answer was lost (a network
 * drop, a timeout, a second click) and that is sent again with the same `Idempotency-Key` header
 * is answered again, not recorded twice.
 *
 * One row per key a user sent to a guarded call:
 * - user_id, scope, idem_key: who sent it, to which call ('order.create', 'ledger.recharge'), and
 *   the client's key; the primary key on the three is what stops two requests with one key from
 *   both writing (the second waits for the first's transaction, then finds its row);
 * - fingerprint: SHA-256 (hex) of the request body, so the same key with another body is refused;
 * - status, answer: the answer's status and its envelope's data (JSON), written in the
 *   transaction of the write itself, so a crash leaves neither the write nor the key;
 * - created_at, expires_at (epoch ms): a key is honoured 24 h; the retention job removes expired
 *   rows through the index on expires_at.
 * No foreign key to users: a key says nothing worth keeping a user for, and goes within a day.
 * MySQL: a binary collation (keys are case-sensitive) and mediumtext (an order's answer can pass
 * text's 64 KiB).
 */
import { MysqlAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const mysql = isMysql(db);
  let table = db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('scope', 'varchar(64)', (col) => col.notNull())
    .addColumn('idem_key', 'varchar(128)', (col) => col.notNull())
    .addColumn('fingerprint', 'varchar(64)', (col) => col.notNull())
    .addColumn('status', 'integer')
    .addColumn('answer', mysql ? sql`mediumtext` : 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'scope', 'idem_key']);
  if (mysql) table = table.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  await table.execute();
  await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
