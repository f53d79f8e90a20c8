/**
 * Configuration: the only module that reads process.env. Every setting is declared once in
 * SETTINGS (type, default, bounds, help text) and checked by TypeBox at start; the rules between
 * settings follow as code in loadConfig. A bad value throws a ConfigError whose message names
 * the variable (decision 0107).
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_MAX, PASSWORD_MIN } from '@clearplay/contract';
import { Type, type Static } from 'typebox';
import { choice, envText, flag, readSettings, SettingError, text, whole, type Env } from './lib/env-settings.ts';
import { readUploadsConfig, UploadConfigError, type UploadsConfig } from './modules/uploads/uploads.config.ts';

/** apps/server/src/config.ts -> the repository root, whatever the working directory. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export type DbTarget = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string } | { dialect: 'mysql'; url: string };

/**
 * How long a call may wait on the database, and how many connections it may hold (PostgreSQL
 * and MySQL/MariaDB; SQLite keeps its own busy timeout). A call past a budget answers 503
 * "briefly unavailable" (decision 0083).
 */
export interface DbLimits {
  /** Connections in the pool, per process. */
  poolSize: number;
  /** One statement may run this long; 0 = no limit. Enforced by the server, and by the client a little later (a frozen server). */
  statementTimeoutMs: number;
  /** A statement may wait this long for a row or table lock; 0 = no limit. */
  lockTimeoutMs: number;
  /** Getting a connection (from the pool, or a new one opened) may take this long. */
  acquireTimeoutMs: number;
}

/** The defaults of the DB_* settings (README "Configuration", decision 0083). */
export const DEFAULT_DB_LIMITS: DbLimits = { poolSize: 20, statementTimeoutMs: 10_000, lockTimeoutMs: 5_000, acquireTimeoutMs: 5_000 };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * INSTANCES: `single` (default), one process on one machine; `multi`, several processes share
 * the database and nothing may live only on one machine's disk (decision 0088).
 */
const INSTANCES = ['single', 'multi'] as const;
export type Instances = (typeof INSTANCES)[number];

/**
 * TOTP_REQUIRED: who must sign in with a second factor (decision 0091). `admins` (default):
 * super_admin and admin; `staff`: every role but shop; `none`: nobody (everyone may still set
 * one up). The demo accounts are never required to.
 */
const TOTP_REQUIRED = ['admins', 'staff', 'none'] as const;
export type TotpRequired = (typeof TOTP_REQUIRED)[number];
/** TOTP_SECRET_KEY: at least this many characters. */
export const TOTP_SECRET_KEY_MIN = 32;

export interface TotpConfig {
  required: TotpRequired;
  /** TOTP_SECRET_KEY; null: the one generated on first start in `<dataDir>/totp-secret-key`. */
  secretKey: string | null;
}

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /**
   * The embedded upload host's folder (images in `files/`, unfinished chunked uploads in
   * `multipart/`): UPLOADS_DIR, by default `<dataDir>/uploads`. With several instances, a
   * volume they all mount.
   */
  uploadsDir: string;
  instances: Instances;
  database: DbTarget;
  dbLimits: DbLimits;
  initAdminPassword: string | undefined;
  sessionTtlHours: number;
  sessionRememberDays: number;
  /**
   * TRUST_PROXY: how many proxies in front of the server are believed, 0 = none. `true` is 1:
   * the client's address is the last one that proxy appended to X-Forwarded-For, so an address
   * a client wrote into the header itself is never taken (decision 0103).
   */
  trustProxy: number;
  /** Origins (scheme://host[:port]) allowed to call the API from a browser; none by default. */
  corsOrigins: string[];
  /** Whole request (headers and body) must arrive within this; 0 = no limit. */
  requestTimeoutMs: number;
  /** A connection with no traffic for this long is closed. */
  connectionTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** On SIGTERM/SIGINT, in-flight requests get this long before open connections are cut. */
  shutdownGraceMs: number;
  webDist: string;
  /**
   * Where the public pages are reached (scheme, host, optional path; no trailing slash), for
   * links printed outside the browser: the verification URL and QR code in an order's ZIP.
   * Unset: the origin of the request that asks (decision 0051).
   */
  publicUrl: string | null;
  demo: boolean;
  logLevel: LogLevel;
  uploads: UploadsConfig;
  retention: RetentionConfig;
  totp: TotpConfig;
}

/** What the retention job removes, and how often it runs (README "Configuration", docs/deploy.md). */
export interface RetentionConfig {
  /** Login records and operation logs older than this many days are removed; 0 keeps them forever. */
  days: number;
  /** Uploaded images referenced by no order and older than this many hours are removed; 0 keeps them. */
  uploadGraceHours: number;
  /** Read messages older than this many days are removed (open todos and unread ones stay); 0 keeps them. */
  messageDays: number;
  /** How often the job runs, across all processes sharing the database. */
  intervalMinutes: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

// ── The settings: one declaration each (README "Configuration"), checked by TypeBox ──
// Seconds become milliseconds, and paths are resolved from the repository root, in loadConfig.

/** What is wrong with a DATABASE_URL, or null: postgres://, postgresql://, mysql:// or mariadb:// naming a database. */
function databaseUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL (expected postgres://…, postgresql://… or mysql://…)';
  }
  switch (url.protocol) {
    case 'postgres:':
    case 'postgresql:':
      return null;
    case 'mysql:':
    case 'mariadb:':
      return url.pathname.length <= 1 ? 'must name a database, e.g. mysql://user@host/clearplay' : null;
    default:
      return `has an unsupported scheme "${url.protocol}" (expected postgres://, postgresql:// or mysql://)`;
  }
}

const parsedUrl = (raw: string): URL | undefined => {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
};

/** CORS_ORIGINS' entries: an http(s) origin, scheme and host only (a trailing slash allowed). */
const isOrigin = (entry: string): boolean => {
  const url = parsedUrl(entry);
  return url !== undefined && ['http:', 'https:'].includes(url.protocol) && url.origin === entry.replace(/\/$/, '');
};

/** PUBLIC_URL: an http(s) URL, a path allowed, no query or fragment. */
const isPublicUrl = (raw: string): boolean => {
  const url = parsedUrl(raw);
  return url !== undefined && ['http:', 'https:'].includes(url.protocol) && url.search === '' && url.hash === '';
};

/** A string setting that must pass `check`; `detail` says why a value does not. */
const checked = (description: string, check: (value: string) => boolean, detail: (value: string) => string) =>
  Type.Refine(Type.String({ description }), check, detail);

const DB = DEFAULT_DB_LIMITS;

/**
 * Every variable config.ts reads, with its type, default, bounds and help text. The upload
 * settings (UPLOAD_*, EVIDENCE_URL_*, QINIU_*) are read by modules/uploads/uploads.config.ts.
 */
export const SETTINGS = Type.Object({
  PORT: whole(3000, 0, 65535, 'The TCP port the server listens on.'),
  HOST: text('The address the server listens on.', { default: '0.0.0.0' }),
  DATA_DIR: text('The SQLite file, uploaded images and generated keys (relative: from the repository root).', { default: './data' }),
  UPLOADS_DIR: Type.Optional(text("The embedded upload host's images (default $DATA_DIR/uploads); with INSTANCES=multi a shared volume.")),
  INSTANCES: choice(INSTANCES, 'single', 'single: one process on one machine; multi: several share the database (decision 0088).'),
  DATABASE_URL: Type.Optional(
    checked(
      'postgres://… for PostgreSQL, mysql://… for MySQL/MariaDB; unset: SQLite at $DATA_DIR/clearplay.db.',
      (raw) => databaseUrlProblem(raw) === null,
      (raw) => databaseUrlProblem(raw) ?? '',
    ),
  ),
  DB_POOL_SIZE: whole(DB.poolSize, 1, 1000, 'PostgreSQL / MySQL connections per process.'),
  DB_STATEMENT_TIMEOUT_SECONDS: whole(DB.statementTimeoutMs / 1000, 0, 3600, 'One statement may run this long, then 503; 0: no limit.'),
  DB_LOCK_TIMEOUT_SECONDS: whole(DB.lockTimeoutMs / 1000, 0, 3600, 'A statement may wait this long for a lock, then 503; 0: no limit.'),
  DB_ACQUIRE_TIMEOUT_SECONDS: whole(DB.acquireTimeoutMs / 1000, 1, 3600, 'Getting a database connection may take this long, then 503.'),
  INIT_ADMIN_PASSWORD: Type.Optional(
    text('The first superadmin password; unset: generated and printed once.', { minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }),
  ),
  SESSION_TTL_HOURS: whole(12, 1, 24 * 365, 'Session lifetime.'),
  SESSION_REMEMBER_DAYS: whole(14, 1, 365, 'Session lifetime when "remember password" is ticked.'),
  TRUST_PROXY: whole(0, 0, 10, 'How many proxies in front are believed for the client address: false 0, true 1, or a count.', {
    orYesNo: true,
    expects: 'true, false or a number of proxies in front',
  }),
  CORS_ORIGINS: Type.Array(
    checked(
      'An origin allowed to call the API from a browser.',
      isOrigin,
      (entry) => `must list origins like https://admin.example.com (scheme and host, no path), got "${entry}"`,
    ),
    { default: [], description: 'Comma-separated origins allowed to call the API from a browser; none by default.' },
  ),
  REQUEST_TIMEOUT_SECONDS: whole(120, 0, 3600, 'A request (headers and body) must arrive within this; 0: no limit.'),
  CONNECTION_TIMEOUT_SECONDS: whole(60, 1, 3600, 'A connection with no traffic for this long is closed.'),
  KEEP_ALIVE_TIMEOUT_SECONDS: whole(72, 1, 3600, 'An idle keep-alive connection is closed after this.'),
  SHUTDOWN_GRACE_SECONDS: whole(5, 0, 60, 'On SIGTERM/SIGINT, in-flight requests get this long before open connections are cut.'),
  WEB_DIST: text('The built web app the server serves (relative: from the repository root).', { default: 'apps/web/dist' }),
  PUBLIC_URL: Type.Optional(
    checked(
      "Where the public pages are reached, for links printed outside the browser; unset: the request's origin.",
      isPublicUrl,
      (raw) => `must be an http(s) URL like https://check.example.com, got "${raw}"`,
    ),
  ),
  DEMO: flag(false, 'Seed the demo business for trying the app out (also --demo).'),
  LOG_LEVEL: choice(LOG_LEVELS, 'info', 'The pino log level.'),
  RETENTION_DAYS: whole(180, 0, 36500, 'Login records and operation logs older than this are removed; 0 keeps them.'),
  RETENTION_UPLOAD_HOURS: whole(24, 0, 24 * 3650, 'Images no order or user names are removed once this old; 0 keeps them.'),
  RETENTION_INTERVAL_MINUTES: whole(60, 1, 7 * 24 * 60, 'How often the retention job runs, across all processes.'),
  RETENTION_MESSAGE_DAYS: whole(90, 0, 36500, 'Read messages older than this are removed; 0 keeps them.'),
  TOTP_REQUIRED: choice(TOTP_REQUIRED, 'admins', 'Who must sign in with a second factor: admins, staff or none (decision 0091).'),
  TOTP_SECRET_KEY: Type.Optional(
    text('The key the authenticator secrets are encrypted with; unset: generated in $DATA_DIR/totp-secret-key.', {
      minLength: TOTP_SECRET_KEY_MIN,
    }),
  ),
});

type Settings = Static<typeof SETTINGS>;

const fromRoot = (path: string): string => (isAbsolute(path) ? path : resolve(REPO_ROOT, path));

/** DATABASE_URL unset -> SQLite file in the data directory; postgres:// or mysql:// otherwise. */
export function parseDatabaseUrl(raw: string | undefined, dataDir: string): DbTarget {
  if (raw === undefined) return { dialect: 'sqlite', file: resolve(dataDir, 'clearplay.db') };
  const problem = databaseUrlProblem(raw);
  if (problem !== null) throw new ConfigError('DATABASE_URL', problem);
  return new URL(raw).protocol.startsWith('postgres')
    ? { dialect: 'postgres', url: raw }
    : { dialect: 'mysql', url: raw.replace(/^mariadb:/, 'mysql:') };
}

/** PUBLIC_URL as kept: a path prefix kept, a trailing slash dropped. */
const publicUrlOf = (raw: string): string => {
  const url = new URL(raw);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
};

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The start-up check of INSTANCES=multi (decision 0088): SQLite is one file on one machine, so
 * it is refused outright. With the embedded upload host every instance must accept the tokens
 * and evidence links the others sign (UPLOAD_ACCESS_KEY / UPLOAD_SECRET_KEY, EVIDENCE_URL_SECRET
 * from configuration, not generated per DATA_DIR) and see the files the others stored
 * (UPLOADS_DIR naming a shared volume that is mounted). With the provider, its keys are
 * configuration already (QINIU_*) and the files are in its bucket.
 */
function checkInstances(settings: Settings, config: Pick<AppConfig, 'instances' | 'database' | 'uploads' | 'uploadsDir' | 'totp'>): void {
  if (config.instances === 'single') return;
  if (config.database.dialect === 'sqlite') {
    throw new ConfigError(
      'INSTANCES',
      'is multi, but the database is SQLite: a SQLite file belongs to one machine. Point DATABASE_URL at PostgreSQL or MySQL/MariaDB, or run one instance',
    );
  }
  if (config.uploads.provider === 'local') checkSharedUploads(settings, config);
  if (config.totp.secretKey === null) {
    throw new ConfigError(
      'INSTANCES',
      'is multi, so every instance needs the same TOTP_SECRET_KEY (the key the authenticator secrets are encrypted with, at least 32 characters; decision 0091)',
    );
  }
}

/** INSTANCES=multi with the embedded upload host: the same keys and one shared volume everywhere. */
function checkSharedUploads(settings: Settings, config: Pick<AppConfig, 'uploads' | 'uploadsDir'>): void {
  const { uploads } = config;
  if (uploads.provider !== 'local') return;
  const missing = [
    ...(uploads.uploadKeys === null ? ['UPLOAD_ACCESS_KEY and UPLOAD_SECRET_KEY'] : []),
    ...(uploads.evidenceUrlSecret === null ? ['EVIDENCE_URL_SECRET'] : []),
    ...(settings.UPLOADS_DIR === undefined ? ['UPLOADS_DIR (the shared volume the images live on)'] : []),
  ];
  if (missing.length > 0) {
    throw new ConfigError(
      'INSTANCES',
      `is multi with the embedded upload host (no QINIU_* settings), so every instance needs the same ${missing.join(', ')}; ` +
        'or store the images with the cloud storage provider (docs/deploy.md "Several instances")',
    );
  }
  if (!isDirectory(config.uploadsDir)) {
    throw new ConfigError(
      'UPLOADS_DIR',
      `"${config.uploadsDir}" is not a directory: with INSTANCES=multi it must be the shared volume every instance mounts, mounted before the start`,
    );
  }
}

export function loadConfig(env: Env = process.env, argv: readonly string[] = process.argv.slice(2)): AppConfig {
  let settings: Settings;
  let uploads: UploadsConfig;
  try {
    settings = readSettings(SETTINGS, env);
    uploads = readUploadsConfig((name) => envText(env, name));
  } catch (error) {
    if (error instanceof SettingError || error instanceof UploadConfigError) throw new ConfigError(error.variable, error.detail);
    throw error;
  }

  // The rules between settings.
  const dataDir = fromRoot(settings.DATA_DIR);
  const uploadsDir = fromRoot(settings.UPLOADS_DIR ?? join(dataDir, 'uploads'));
  const database = parseDatabaseUrl(settings.DATABASE_URL, dataDir);
  if (uploads.provider !== 'local' && settings.UPLOADS_DIR !== undefined) {
    throw new ConfigError(
      'UPLOADS_DIR',
      'is for the embedded upload host; with the cloud storage provider (QINIU_*) the images live in its bucket',
    );
  }
  const totp: TotpConfig = { required: settings.TOTP_REQUIRED, secretKey: settings.TOTP_SECRET_KEY ?? null };
  checkInstances(settings, { instances: settings.INSTANCES, database, uploads, uploadsDir, totp });

  const ms = (seconds: number): number => seconds * 1000;
  return {
    port: settings.PORT,
    host: settings.HOST,
    dataDir,
    uploadsDir,
    instances: settings.INSTANCES,
    database,
    dbLimits: {
      poolSize: settings.DB_POOL_SIZE,
      statementTimeoutMs: ms(settings.DB_STATEMENT_TIMEOUT_SECONDS),
      lockTimeoutMs: ms(settings.DB_LOCK_TIMEOUT_SECONDS),
      acquireTimeoutMs: ms(settings.DB_ACQUIRE_TIMEOUT_SECONDS),
    },
    initAdminPassword: settings.INIT_ADMIN_PASSWORD,
    sessionTtlHours: settings.SESSION_TTL_HOURS,
    sessionRememberDays: settings.SESSION_REMEMBER_DAYS,
    trustProxy: settings.TRUST_PROXY,
    corsOrigins: settings.CORS_ORIGINS.map((entry) => new URL(entry).origin),
    requestTimeoutMs: ms(settings.REQUEST_TIMEOUT_SECONDS),
    connectionTimeoutMs: ms(settings.CONNECTION_TIMEOUT_SECONDS),
    keepAliveTimeoutMs: ms(settings.KEEP_ALIVE_TIMEOUT_SECONDS),
    shutdownGraceMs: ms(settings.SHUTDOWN_GRACE_SECONDS),
    webDist: fromRoot(settings.WEB_DIST),
    publicUrl: settings.PUBLIC_URL === undefined ? null : publicUrlOf(settings.PUBLIC_URL),
    demo: argv.includes('--demo') || settings.DEMO,
    logLevel: settings.LOG_LEVEL,
    uploads,
    retention: {
      days: settings.RETENTION_DAYS,
      uploadGraceHours: settings.RETENTION_UPLOAD_HOURS,
      intervalMinutes: settings.RETENTION_INTERVAL_MINUTES,
      messageDays: settings.RETENTION_MESSAGE_DAYS,
    },
    totp,
  };
}

/**
 * The folder the user typed the command in (npm runs scripts from the package folder and
 * keeps the original in INIT_CWD), against which a command's file arguments are resolved.
 */
export const invocationDir = (env: Env = process.env): string => envText(env, 'INIT_CWD') ?? process.cwd();

/** Whether the built web app is present (its index.html exists). */
export const webDistExists = (config: Pick<AppConfig, 'webDist'>): boolean => existsSync(resolve(config.webDist, 'index.html'));
