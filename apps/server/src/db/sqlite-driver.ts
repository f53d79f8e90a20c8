/**
 * better-sqlite3, the driver of the embedded database, in the line that fits the running Node
 * (decision 0114). Up to 12.x it builds on Node's own `node::ObjectWrap`, and on Node 24 (from
 * 24.19) a statement collected at the wrong moment aborts the whole process ("Assertion failed:
 * (env) != nullptr" in RemoveEnvironmentCleanupHook); 13.x is built on Node-API and has no such
 * crash, but needs Node 22 and crashes on Node 20. So the install holds both: `better-sqlite3`
 * (12.x) for Node 20, and `better-sqlite3-node22` (13.x, an optional dependency that npm skips
 * on Node 20) for Node 22 and later. The API the server uses is the same in both.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** The package this Node loads. */
export const SQLITE_DRIVER_PACKAGE = NODE_MAJOR >= 22 ? 'better-sqlite3-node22' : 'better-sqlite3';

const requireDriver = createRequire(import.meta.url);

/** The file a worker thread requires to load the same driver (db/checkpoint.ts). */
export function sqliteDriverPath(): string {
  try {
    return requireDriver.resolve(SQLITE_DRIVER_PACKAGE);
  } catch (error) {
    throw new Error(
      `${SQLITE_DRIVER_PACKAGE} is not installed: on Node ${process.versions.node} the embedded database needs it (run npm install with this Node)`,
      { cause: error },
    );
  }
}

/** better-sqlite3, loaded on first use: a PostgreSQL or MySQL install never loads it. */
export const sqliteDriver = (): typeof BetterSqlite3 => requireDriver(sqliteDriverPath()) as typeof BetterSqlite3;
