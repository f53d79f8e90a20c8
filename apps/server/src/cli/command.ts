/**
 * What `npm run backup` and `npm run restore` share: the configuration, the SQLite check (with
 * PostgreSQL or MySQL they say which native tool to use), the one file argument resolved from
 * where the person typed the command, and one- or two-line failures without a stack trace.
 */
import { resolve } from 'node:path';
import { ConfigError, invocationDir, loadConfig } from '../config.ts';
import { DataCareError } from '../db/backup.ts';
import { nativeToolAdvice } from './native-tools.ts';

export function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/** The SQLite database file and the command's file argument, or the process ends with a message. */
export function sqliteCommand(action: 'backup' | 'restore', usage: string): { databaseFile: string; file: string } {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  let config;
  try {
    config = loadConfig(process.env, []);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  if (config.database.dialect !== 'sqlite') fail(nativeToolAdvice(config.database, action));
  if (args.length !== 1 || args[0]!.startsWith('-')) fail(usage, 2);
  return { databaseFile: config.database.file, file: resolve(invocationDir(), args[0]!) };
}

/** Ends the process with the failure's own message (a DataCareError) or `The <action> failed: …`. */
export function failWith(action: 'backup' | 'restore', error: unknown): never {
  if (error instanceof DataCareError) fail(error.message);
  fail(`The ${action} failed: ${error instanceof Error ? error.message : String(error)}`);
}
