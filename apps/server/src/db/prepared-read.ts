/**
 * preparedRead: a one-row read of committed data compiled once per database and, on a SQLite
 * file, prepared once on the read-only connection (sqlite-reader.ts); the session check's lookup
 * (decisions 0032, 0071, 0076).
 */
import { CamelCasePlugin, type Compilable, type CompiledQuery, type Kysely, type QueryResult, type UnknownRow } from 'kysely';
import type { Database } from './schema.ts';
import { LockingSqliteAdapter } from './sqlite-locking.ts';
import type { SqliteReader } from './sqlite-reader.ts';

/**
 * A function making a row of a column-values array, with `keys` as its property names in order:
 * one object literal, compiled once per query (as fast-json-stringify and pino compile theirs).
 * Setting the properties one by one in a loop makes V8 look every key up afresh on each row, which
 * cost about as much as the read itself on the session check (decision 0076). The keys are the
 * query's own column names after the camel-case plugin, written into the source as JSON strings,
 * so no text of a row or a caller ever reaches the compiled function.
 */
export function rowMaker(keys: readonly string[]): (values: readonly unknown[]) => Record<string, unknown> {
  const fields = keys.map((key, i) => `${JSON.stringify(key)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as (values: readonly unknown[]) => Record<string, unknown>;
}

/**
 * A one-row read of committed data, built and compiled once per database and then run with new
 * parameter values: no query building per call. On a SQLite file it runs on SqliteReader's
 * connection, its statement prepared once; elsewhere (PostgreSQL, MySQL, inside a transaction)
 * the compiled text goes through Kysely's executor like any query. Either way the result passes
 * through the Kysely plugins (camel case), so both paths answer the same row: on SQLite, when
 * the only plugin is camel case (which only renames), the columns are renamed once and each row
 * is read as an array and given those names (rowMaker); any other plugin sees every row.
 *
 * On that SQLite path the row is answered at once, not as a promise (after the first call, which
 * names the columns): better-sqlite3 reads synchronously, and a caller on the request path
 * (the session check) then takes no promise and no microtask turn per call. Elsewhere, and at
 * the first call, it answers a promise; `await` takes either (decision 0071).
 *
 * `build` receives `placeholders` and must bind exactly them, in order, as the query's only
 * parameters (checked at the first compile); each call substitutes its own values.
 */
export function preparedRead<P extends readonly unknown[], R>(
  build: (db: Kysely<Database>, ...params: P) => Compilable<R>,
  placeholders: P,
): (db: Kysely<Database>, ...params: P) => R | undefined | Promise<R | undefined> {
  const compiled = new WeakMap<Kysely<Database>, CompiledQuery<R>>();
  /** Per database: the maker of a row (keys after the plugins) of its values, or null when the plugins do more than rename. */
  const renamed = new WeakMap<Kysely<Database>, ((values: readonly unknown[]) => R) | null>();
  const compile = (db: Kysely<Database>): CompiledQuery<R> => {
    const query = build(db, ...placeholders).compile();
    const bound = query.parameters;
    if (bound.length !== placeholders.length || bound.some((value, i) => value !== placeholders[i])) {
      throw new Error(`preparedRead: the query must bind exactly its ${placeholders.length} parameter(s), in order: ${query.sql}`);
    }
    compiled.set(db, query);
    return query;
  };
  type Executor = ReturnType<Kysely<Database>['getExecutor']>;
  const throughPlugins = async (executor: Executor, query: CompiledQuery<R>, rows: UnknownRow[]) => {
    let result: QueryResult<UnknownRow> = { rows };
    for (const plugin of executor.plugins) result = await plugin.transformResult({ result, queryId: query.queryId });
    return result.rows;
  };
  /** Camel case only renames: a row whose every column holds its own index, once through it, names the columns. */
  const nameColumns = async (db: Kysely<Database>, executor: Executor, query: CompiledQuery<R>, reader: SqliteReader) => {
    // Any other plugin may change values too, so it sees every row (null).
    let toRow: ((values: readonly unknown[]) => R) | null = null;
    if (executor.plugins.every((plugin) => plugin instanceof CamelCasePlugin)) {
      const columns = reader.columns(query.sql);
      const [probe] = await throughPlugins(executor, query, [Object.fromEntries(columns.map((name, i) => [name, i]))]);
      const entries = Object.entries(probe ?? {});
      if (entries.length === columns.length && entries.every(([, value], i) => value === i)) {
        toRow = rowMaker(entries.map(([key]) => key)) as unknown as (values: readonly unknown[]) => R;
      }
    }
    renamed.set(db, toRow);
  };
  const read = (db: Kysely<Database>, ...params: P): R | undefined | Promise<R | undefined> => {
    const query = compiled.get(db) ?? compile(db);
    const executor = db.getExecutor();
    const reader = executor.adapter instanceof LockingSqliteAdapter && !db.isTransaction ? executor.adapter.reader : null;
    if (reader === null) return db.executeQuery<R>({ ...query, parameters: params }).then((result) => result.rows[0]);
    const toRow = renamed.get(db);
    if (toRow === undefined) return nameColumns(db, executor, query, reader).then(() => read(db, ...params));
    if (toRow !== null) return reader.getAs(query.sql, params, toRow);
    const row = reader.get(query.sql, params) as UnknownRow | undefined;
    return row === undefined ? undefined : throughPlugins(executor, query, [row]).then((rows) => rows[0] as R | undefined);
  };
  return read;
}
