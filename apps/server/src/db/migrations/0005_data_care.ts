/**
 * FROZEN. Data care (issue 12): the lease rows of the single-runner job scheduler.
 *
 * job_leases holds one row per periodic job: who ran it last (`holder`) and until when the
 * job belongs to that holder (`expires_at`, epoch ms; also when the job is next due). A
 * process claims a job with one conditional UPDATE (`… where name = ? and expires_at <= now`)
 * or, for a job never run, an INSERT that a concurrent insert of the same name makes a no-op;
 * either way the database decides the single winner, on all three dialects.
 *
 * Index notes: the retention job's filters already have indexes from earlier migrations
 * (sessions_expires_at_idx and login_records_created_at_idx in 0001, operation_logs_created_idx
 * in 0003), and its scan of order images walks the orders primary key; nothing to add.
 */
import { MysqlAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const isMysql = (db: Kysely<any>) => db.getExecutor().adapter instanceof MysqlAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  let leases = db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('holder', 'varchar(128)', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull());
  if (isMysql(db)) leases = leases.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`);
  await leases.execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
}
