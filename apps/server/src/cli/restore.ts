/**
 * `npm run restore -- <file>`: puts a backup made by `npm run backup` in place of the SQLite
 * database, after checking it is a ClearPlay database; refused while ClearPlay runs on it
 * (db/backup.ts, db/run-lock.ts). With PostgreSQL or MySQL it says which native tool to use.
 */
import { restoreSqlite } from '../db/backup.ts';
import { failWith, sqliteCommand } from './command.ts';

async function main(): Promise<void> {
  const { databaseFile, file: backup } = sqliteCommand('restore', 'Usage: npm run restore -- <file>   (a file made by npm run backup)');
  try {
    const done = await restoreSqlite(backup, databaseFile);
    console.log(
      [
        `Restored ${backup} into ${databaseFile} (${done.summary.users} user(s), ${done.summary.migrations.length} migration(s)).`,
        done.previous === null ? '' : `The database it replaced is kept as ${done.previous}.`,
        'Start ClearPlay again with npm start.',
      ]
        .filter((l) => l !== '')
        .join('\n'),
    );
  } catch (error) {
    failWith('restore', error);
  }
}

await main();
