import { CompiledQuery, sql, type Compilable } from 'kysely';
import { dialectOf } from '../db/dialect.ts';
import type { Db } from '../db/index.ts';

/**
 * The database's plan for a query, as one text: SQLite's EXPLAIN QUERY PLAN details, PostgreSQL's
 * EXPLAIN lines (with sequential and bitmap scans off, so the plan shows whether an index can
 * answer the query alone, whatever a tiny test table would make the planner prefer), MySQL's /
 * MariaDB's EXPLAIN rows as `table key=… extra=…`.
 */
export async function planOf(db: Db, query: Compilable): Promise<string> {
  const compiled = query.compile();
  const raw = (prefix: string) => CompiledQuery.raw(`${prefix} ${compiled.sql}`, [...compiled.parameters]);
  switch (dialectOf(db)) {
    case 'sqlite': {
      const { rows } = await db.withoutPlugins().executeQuery<{ detail: string }>(raw('explain query plan'));
      return rows.map((r) => r.detail).join('\n');
    }
    case 'postgres':
      return db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        await sql`set local enable_bitmapscan = off`.execute(trx);
        const { rows } = await trx.withoutPlugins().executeQuery<{ 'QUERY PLAN': string }>(raw('explain'));
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    case 'mysql': {
      const { rows } = await db.withoutPlugins().executeQuery<{ table: string; key: string | null; Extra: string | null }>(raw('explain'));
      return rows.map((r) => `${r.table} key=${r.key ?? ''} extra=${r.Extra ?? ''}`).join('\n');
    }
  }
}

/** Fresh planner statistics for `table` (what a database that has run a while has). */
export async function analyze(db: Db, table: string): Promise<void> {
  const dialect = dialectOf(db);
  if (dialect === 'sqlite') await sql`analyze ${sql.id(table)}`.execute(db);
  else if (dialect === 'postgres') await sql`analyze ${sql.id(table)}`.execute(db);
  else await sql`analyze table ${sql.id(table)}`.execute(db);
}
