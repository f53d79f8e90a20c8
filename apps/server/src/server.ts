/**
 * Entry point: configuration, database, migrations, seed, listen. A configuration error
 * prints one line naming the variable and exits 1 (no stack trace).
 */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, webDistExists, type AppConfig } from './config.ts';
import { checkpointsSettled } from './db/checkpoint.ts';
import { createDb, type Db } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { DEMO_PASSWORD } from './db/seed.ts';
import { seedWithDemo } from './demo/index.ts';
import { holdSharedRunLock, type RunLock } from './db/run-lock.ts';
import { startAppJobs } from './modules/jobs/app-jobs.ts';
import { exitOnUnexpectedError, type FatalLog } from './lib/process.ts';

/** Until the app's logger exists, fatal errors go to stderr. */
let logger: FatalLog = {
  fatal: (details, message) => console.error(message, details.err),
};
exitOnUnexpectedError(() => logger);

function describeDb(config: AppConfig): string {
  const target = config.database;
  if (target.dialect === 'sqlite') return `SQLite ${target.file}`;
  const url = new URL(target.url);
  return `${target.dialect === 'postgres' ? 'PostgreSQL' : 'MySQL'} ${url.host}${url.pathname}`;
}

/** Where images live and where the upload keys come from; names settings, never their values. */
function describeImages(config: AppConfig): string {
  const uploads = config.uploads;
  const instances = config.instances === 'multi' ? ', several instances' : '';
  if (uploads.provider !== 'local') return `cloud storage provider, bucket ${uploads.bucket}${instances}`;
  const keys = uploads.uploadKeys === null ? 'generated in DATA_DIR' : 'UPLOAD_ACCESS_KEY / UPLOAD_SECRET_KEY';
  return `${config.uploadsDir} (upload keys: ${keys})${instances}`;
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let db: Db | undefined;
  let runLock: RunLock | undefined;
  try {
    // SQLite: tells `npm run restore` that a server uses this file (db/run-lock.ts).
    if (config.database.dialect === 'sqlite') runLock = holdSharedRunLock(config.database.file);
    // Migrations and the seed run without the request budgets (DB_*_TIMEOUT_SECONDS): an index
    // built on a big table, or a second process waiting for the migration lock, may take longer
    // than a call may. The app then gets a pool of its own, bounded.
    db = createDb(config.database);
    const migrations = await migrateToLatest(db);
    const applied = migrations.results?.filter((r) => r.status === 'Success').length ?? 0;
    const seedStart = performance.now();
    const seeded = await seedWithDemo(db, {
      initAdminPassword: config.initAdminPassword,
      demo: config.demo,
      dataDir: config.dataDir,
      uploadsDir: config.uploadsDir,
    });
    const seedSeconds = (performance.now() - seedStart) / 1000;
    if (config.database.dialect !== 'sqlite') {
      await db.destroy();
      db = createDb(config.database, config.dbLimits);
    }
    const app = await buildApp({ config, db });
    logger = app.log;
    await app.listen({ port: config.port, host: config.host });

    const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    const url = `http://${shown}:${config.port}`;
    const lines = [
      '',
      `ClearPlay is running: ${url}/login`,
      `  database: ${describeDb(config)}${applied > 0 ? ` (${applied} migration(s) applied)` : ''}`,
      `  API docs: ${url}/api/docs`,
      `  images:   ${describeImages(config)}`,
    ];
    if (!webDistExists(config)) lines.push(`  web app:  not built (${config.webDist}); run "npm run build"`);
    if (seeded.admin) {
      lines.push(
        `  first start: created the super admin account`,
        `    username: ${seeded.admin.username}`,
        seeded.admin.generated
          ? `    password: ${seeded.admin.password}   (generated; shown only this once, write it down)`
          : `    password: the value of INIT_ADMIN_PASSWORD`,
      );
    }
    if (seeded.demoUsers.length > 0) lines.push(`  demo accounts: ${seeded.demoUsers.join(', ')} (password ${DEMO_PASSWORD})`);
    if (seeded.demo) {
      const d = seeded.demo;
      lines.push(
        `  demo business: ${d.shops} shops (shop0001–shop${String(d.shops).padStart(4, '0')}), ${d.inspectors} inspectors, ${d.orders} orders over ${d.days} days,`,
        `    ${d.ledgerEntries} ledger entries, ${d.operationLogs} operation-log rows (seeded in ${seedSeconds.toFixed(1)} s; every demo account: password ${DEMO_PASSWORD})`,
      );
    }
    console.log(lines.join('\n') + '\n');
    const jobs = startAppJobs({ db, config, log: app.log });

    // SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close the database, exit 0.
    // Idle keep-alive connections end at once; requests arriving meanwhile on busy ones get 503.
    // A connection still open after the grace period (a slow or stalled client) is cut; if the
    // close still has not finished a few seconds later, the process exits 1 anyway.
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
      const cut = setTimeout(() => {
        app.log.warn('shutdown: closing the connections still open after the grace period');
        app.server.closeAllConnections();
      }, config.shutdownGraceMs);
      const deadline = setTimeout(() => {
        app.log.error('shutdown: still not closed; exiting');
        process.exit(1);
      }, config.shutdownGraceMs + 4000);
      deadline.unref();
      await jobs.stop();
      await app.close();
      clearTimeout(cut);
      await checkpointsSettled();
      await db?.destroy();
      runLock?.release();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  } catch (error) {
    console.error(`ClearPlay could not start: ${error instanceof Error ? error.message : String(error)}`);
    await db?.destroy().catch(() => undefined);
    process.exit(1);
  }
}

await main();
