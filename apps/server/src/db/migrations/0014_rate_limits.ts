/**
 * FROZEN. Rate limits shared by every process (issue 13, decision 0074): the per-client limits
 * of the public calls and the tracking calls count in the database instead of each process's
 * memory, so N processes behind one load balancer allow a client the limit once, not N times,
 * and a restart forgets nothing.
 *
 * One row per limited route and client: the window in progress.
 * - bucket: the limited route ("GET /api/public/lookup", its method and URL pattern);
 * - client_key: the client (its IP after TRUST_PROXY, or a hash of a longer key);
 * - reset_at: when the window ends, epoch ms (the window starts at the client's first call);
 * - hits: calls counted in it.
 * Each limited call is one upsert on the primary key that starts a new window when reset_at has
 * passed. The index on reset_at serves the retention job, which removes ended windows.
 */
import { MysqlAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'varchar(255)', (col) => col.notNull())
    .addColumn('client_key', 'varchar(128)', (col) => col.notNull())
    .addColumn('reset_at', 'bigint', (col) => col.notNull())
    .addColumn('hits', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['bucket', 'client_key']);
  if (isMysql(db)) table = table.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  await table.execute();
  await db.schema.createIndex('rate_limits_reset_idx').on('rate_limits').column('reset_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
