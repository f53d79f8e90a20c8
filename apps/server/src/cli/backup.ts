/**
 * `npm run backup -- <file>`: a consistent copy of the SQLite database, safe while the server
 * runs (db/backup.ts). With PostgreSQL or MySQL it says which native tool to use instead.
 * Messages are one or two lines for the person at the terminal; never a stack trace.
 */
import { resolve } from 'node:path';
import { ConfigError, invocationDir, loadConfig } from '../config.ts';
import { backupSqlite, DataCareError } from '../db/backup.ts';
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
  if (config.database.dialect !== 'sqlite') fail(nativeToolAdvice(config.database, 'backup'));
  if (args.length !== 1 || args[0]!.startsWith('-'))
    fail('Usage: npm run backup -- <file>   (e.g. npm run backup -- clearplay-2026-01-31.db)', 2);
  const target = resolve(invocationDir(), args[0]!);
  try {
    const done = await backupSqlite(config.database.file, target);
    console.log(
      `Backed up ${config.database.file} to ${done.file} (${(done.bytes / 1024 / 1024).toFixed(1)} MB, ${(done.ms / 1000).toFixed(1)} s).`,
    );
  } catch (error) {
    if (error instanceof DataCareError) fail(error.message);
    fail(`The backup failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

await main();
