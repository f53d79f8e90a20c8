/**
 * Every table's rows, counted and hashed, to prove a run of refused requests changed nothing
 * (decision 0102). The tables are read from the database itself, so a table added tomorrow is
 * covered. Rows are serialised and sorted in JS, so the order does not depend on the database.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

/**
 * What a refused call may write, and why:
 * - operation_logs, operation_log_daily: a refused call of a logged route is recorded as failed
 *   (plugins/operation-log.ts; the daily counts are the list's total);
 * - rate_limits: the public routes count every call, refused or not (modules/rate-limit);
 * - sessions.last_seen_at: a signed-in call touches its session at most once a minute
 *   (auth.service.ts, TOUCH_EVERY_MS). The rest of `sessions` must not change.
 */
export const MAY_CHANGE_TABLES = ['operation_logs', 'operation_log_daily', 'rate_limits'] as const;
export const MAY_CHANGE_COLUMNS: Record<string, readonly string[]> = { sessions: ['lastSeenAt'] };

export interface TableState {
  rows: number;
  sum: string;
}

export type Snapshot = Map<string, TableState>;

const normal = (value: unknown): unknown => {
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('hex');
  if (typeof value === 'bigint') return value.toString();
  return value;
};

/** Each table's row count and the sha256 of its rows (sorted), the allowed columns left out. */
export async function snapshotTables(db: Db): Promise<Snapshot> {
  const tables = (await db.introspection.getTables()).map((t) => t.name).sort();
  const out: Snapshot = new Map();
  for (const table of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
    const skip = new Set(MAY_CHANGE_COLUMNS[snakeToCamel(table)] ?? MAY_CHANGE_COLUMNS[table] ?? []);
    const lines = rows
      .map((row) =>
        JSON.stringify(
          Object.keys(row)
            .filter((k) => !skip.has(k) && !skip.has(snakeToCamel(k)))
            .sort()
            .map((k) => [k, normal(row[k])]),
        ),
      )
      .sort();
    const hash = createHash('sha256');
    for (const line of lines) hash.update(line).update('\n');
    out.set(table, { rows: rows.length, sum: hash.digest('hex') });
  }
  return out;
}

const snakeToCamel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The tables that differ, each with its counts (`allowed` ones apart). */
export function compareSnapshots(before: Snapshot, after: Snapshot): { changed: string[]; allowed: string[] } {
  const changed: string[] = [];
  const allowed: string[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(table);
    const b = after.get(table);
    if (a?.sum === b?.sum && a?.rows === b?.rows) continue;
    const line = `${table}: ${a?.rows ?? 'absent'} → ${b?.rows ?? 'absent'} rows${a?.rows === b?.rows ? ' (same count, other content)' : ''}`;
    if ((MAY_CHANGE_TABLES as readonly string[]).includes(table)) allowed.push(line);
    else changed.push(line);
  }
  return { changed, allowed };
}

/** Every file under a folder with the sha256 of its bytes (the upload host's store and staging). */
export async function snapshotFiles(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if ((await stat(path)).isFile())
        out.set(
          relative(root, path),
          createHash('sha256')
            .update(await readFile(path))
            .digest('hex'),
        );
    }
  };
  await walk(root);
  return out;
}
