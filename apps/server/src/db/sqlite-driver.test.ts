import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { SQLITE_DRIVER_PACKAGE, sqliteDriver, sqliteDriverPath } from './sqlite-driver.ts';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

describe('the SQLite driver for this Node (decision 0114)', () => {
  it('is the 12.x line on Node 20 and the 13.x (Node-API) line on Node 22 and later', () => {
    const { version } = createRequire(import.meta.url)(`${SQLITE_DRIVER_PACKAGE}/package.json`) as { version: string };
    expect(Number(version.split('.')[0])).toBe(NODE_MAJOR >= 22 ? 13 : 12);
    const db = new (sqliteDriver())(':memory:');
    try {
      expect(db.prepare('select 40 + 2 as n').get()).toEqual({ n: 42 });
    } finally {
      db.close();
    }
  });

  it('survives the collection of its statements: a process that prepared thousands exits with 0, not an abort', () => {
    // On Node 24, better-sqlite3 12.x aborts the process ("Assertion failed: (env) != nullptr")
    // when a garbage collection outside JavaScript frees its statements: here, after the loop.
    const script = `
      const Database = require(${JSON.stringify(sqliteDriverPath())});
      const db = new Database(':memory:');
      for (let i = 0; i < 20000; i++) db.prepare('select ' + i + ' as n').get();
      setTimeout(() => { const junk = []; for (let i = 0; i < 200000; i++) junk.push({ i }); }, 10);
    `;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect({ status: child.status, signal: child.signal, stderr: child.stderr }).toEqual({ status: 0, signal: null, stderr: '' });
  });
});
