/** What to tell a PostgreSQL or MySQL/MariaDB user instead of backing up or restoring (docs/deploy.md). */
import type { DbTarget } from '../config.ts';

export function nativeToolAdvice(target: Exclude<DbTarget, { dialect: 'sqlite' }>, action: 'backup' | 'restore'): string {
  const url = new URL(target.url);
  const where = `${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  if (target.dialect === 'postgres') {
    return [
      `ClearPlay uses PostgreSQL here (${where}); ${action === 'backup' ? 'back it up' : 'restore it'} with PostgreSQL's own tools:`,
      action === 'backup'
        ? '  pg_dump --format=custom --file=clearplay.dump "$DATABASE_URL"'
        : '  stop ClearPlay, then: pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" clearplay.dump',
      'See docs/deploy.md ("Backup and restore").',
    ].join('\n');
  }
  const db = url.pathname.slice(1);
  return [
    `ClearPlay uses MySQL/MariaDB here (${where}); ${action === 'backup' ? 'back it up' : 'restore it'} with its own tools:`,
    action === 'backup'
      ? `  mariadb-dump --single-transaction --routines --triggers -h ${url.hostname} -u <user> -p ${db} > clearplay.sql   (mysqldump on MySQL)`
      : `  stop ClearPlay, then: mariadb -h ${url.hostname} -u <user> -p ${db} < clearplay.sql   (mysql on MySQL)`,
    'See docs/deploy.md ("Backup and restore").',
  ].join('\n');
}
