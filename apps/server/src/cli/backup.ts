/**
 * `npm run backup -- <file>`: a consistent copy of the SQLite database, safe while the server
 * runs (db/backup.ts). With PostgreSQL or MySQL it says which native tool to use instead.
 * Messages are one or two lines for the person at the terminal; never a stack trace.
 */
import { backupSqlite } from '../db/backup.ts';
import { failWith, sqliteCommand } from './command.ts';

async function main(): Promise<void> {
  const { databaseFile, file: target } = sqliteCommand(
    'backup',
    'Usage: npm run backup -- <file>   (e.g. npm run backup -- clearplay-2026-01-31.db)',
  );
  try {
    const done = await backupSqlite(databaseFile, target);
    console.log(
      `Backed up ${databaseFile} to ${done.file} (${(done.bytes / 1024 / 1024).toFixed(1)} MB, ${(done.ms / 1000).toFixed(1)} s).`,
    );
  } catch (error) {
    failWith('backup', error);
  }
}

await main();
