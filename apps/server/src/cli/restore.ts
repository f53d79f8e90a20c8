/**
 * `npm run restore -- <file>`: puts a backup made by `npm run backup` in place of the SQLite
 * database, after checking it is a ClearPlay database; refused while ClearPlay runs on it
 * (db/backup.ts, db/run-lock.ts). With PostgreSQL or MySQL it says which native tool to use.
 */
import { resolve } from 'node:path';
import { ConfigError, invocationDir, loadConfig } from '../config.ts';
import { DataCareError, restoreSqlite } from '../db/backup.ts';
import { nativeToolAdvice } from './native-tools.ts';

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  let config;
  try {
    config = loadConfig(process.env, []);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  if (config.database.dialect !== 'sqlite') fail(nativeToolAdvice(config.database, 'restore'));
  if (args.length !== 1 || args[0]!.startsWith('-')) fail('Usage: npm run restore -- <file>   (a file made by npm run backup)', 2);
  const backup = resolve(invocationDir(), args[0]!);
  try {
    const done = await restoreSqlite(backup, config.database.file);
    console.log(
      [
        `Restored ${backup} into ${config.database.file} (${done.summary.users} user(s), ${done.summary.migrations.length} migration(s)).`,
        done.previous === null ? '' : `The database it replaced is kept as ${done.previous}.`,
        'Start ClearPlay again with npm start.',
      ]
        .filter((l) => l !== '')
        .join('\n'),
    );
  } catch (error) {
    if (error instanceof DataCareError) fail(error.message);
    fail(`The restore failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

await main();
