// The journeys read the server's SQLite file with the driver line that fits the running Node,
// as the server does (apps/server/src/db/sqlite-driver.ts, decision 0114): better-sqlite3 12.x
// on Node 20, its 13.x line (the optional `better-sqlite3-node22`) on Node 22 and later.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const requireDriver = createRequire(import.meta.url);
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** better-sqlite3's Database class, loaded on first use. */
export const sqliteDatabase = (): typeof BetterSqlite3 =>
  requireDriver(NODE_MAJOR >= 22 ? 'better-sqlite3-node22' : 'better-sqlite3') as typeof BetterSqlite3;
