/**
 * Configuration: the only module that reads process.env. Everything is validated once at
 * start; a bad value throws a ConfigError whose message names the variable.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_MAX, PASSWORD_MIN } from '@clearplay/contract';
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

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * INSTANCES: `single` (default), one process on one machine; `multi`, several processes share
 * the database and nothing may live only on one machine's disk (decision 0088).
 */
export type Instances = 'single' | 'multi';
const INSTANCES: readonly Instances[] = ['single', 'multi'];

/**
 * TOTP_REQUIRED: who must sign in with a second factor (decision 0091). `admins` (default):
 * super_admin and admin; `staff`: every role but shop; `none`: nobody (everyone may still set
 * one up). The demo accounts are never required to.
 */
export type TotpRequired = 'admins' | 'staff' | 'none';
const TOTP_REQUIRED: readonly TotpRequired[] = ['admins', 'staff', 'none'];
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

type Env = Readonly<Record<string, string | undefined>>;

const value = (env: Env, name: string): string | undefined => {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
};

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
  if (['0', 'false', 'no', 'off'].includes(lower)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

/** TRUST_PROXY: false / true (one proxy), or the number of proxies in a chain (a CDN, then nginx: 2). */
function proxyHops(env: Env, name: string): number {
  const raw = value(env, name);
  if (raw !== undefined && /^\d+$/.test(raw)) {
    const n = Number(raw);
    if (n > 10) throw new ConfigError(name, `must be true, false or the number of proxies in front (at most 10), got ${n}`);
    return n;
  }
  try {
    return boolean(env, name, false) ? 1 : 0;
  } catch {
    throw new ConfigError(name, `must be true, false or the number of proxies in front (e.g. 2), got "${raw}"`);
  }
}

/** CORS_ORIGINS: a comma-separated list of origins such as https://admin.example.com. */
function origins(env: Env, name: string): string[] {
  const raw = value(env, name);
  if (raw === undefined) return [];
  return raw.split(',').map((item) => {
    const entry = item.trim();
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (url === undefined || !['http:', 'https:'].includes(url.protocol) || url.origin !== entry.replace(/\/$/, '')) {
      throw new ConfigError(name, `must list origins like https://admin.example.com (scheme and host, no path), got "${entry}"`);
    }
    return url.origin;
  });
}

/** PUBLIC_URL: an http(s) URL such as https://check.example.com (a path prefix is kept, a trailing slash dropped). */
function publicUrl(env: Env, name: string): string | null {
  const raw = value(env, name);
  if (raw === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url === undefined || !['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '') {
    throw new ConfigError(name, `must be an http(s) URL like https://check.example.com, got "${raw}"`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

const fromRoot = (path: string): string => (isAbsolute(path) ? path : resolve(REPO_ROOT, path));

/** DATABASE_URL unset -> SQLite file in the data directory; postgres:// or mysql:// otherwise. */
export function parseDatabaseUrl(raw: string | undefined, dataDir: string): DbTarget {
  if (raw === undefined) return { dialect: 'sqlite', file: resolve(dataDir, 'clearplay.db') };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', 'is not a URL (expected postgres://…, postgresql://… or mysql://…)');
  }
  switch (url.protocol) {
    case 'postgres:':
    case 'postgresql:':
      return { dialect: 'postgres', url: raw };
    case 'mysql:':
    case 'mariadb:':
      if (url.pathname.length <= 1) throw new ConfigError('DATABASE_URL', 'must name a database, e.g. mysql://user@host/clearplay');
      return { dialect: 'mysql', url: raw.replace(/^mariadb:/, 'mysql:') };
    default:
      throw new ConfigError(
        'DATABASE_URL',
        `has an unsupported scheme "${url.protocol}" (expected postgres://, postgresql:// or mysql://)`,
      );
  }
}

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
function checkInstances(env: Env, config: Pick<AppConfig, 'instances' | 'database' | 'uploads' | 'uploadsDir' | 'totp'>): void {
  if (config.instances === 'single') return;
  if (config.database.dialect === 'sqlite') {
    throw new ConfigError(
      'INSTANCES',
      'is multi, but the database is SQLite: a SQLite file belongs to one machine. Point DATABASE_URL at PostgreSQL or MySQL/MariaDB, or run one instance',
    );
  }
  if (config.uploads.provider === 'local') checkSharedUploads(env, config);
  if (config.totp.secretKey === null) {
    throw new ConfigError(
      'INSTANCES',
      'is multi, so every instance needs the same TOTP_SECRET_KEY (the key the authenticator secrets are encrypted with, at least 32 characters; decision 0091)',
    );
  }
}

/** INSTANCES=multi with the embedded upload host: the same keys and one shared volume everywhere. */
function checkSharedUploads(env: Env, config: Pick<AppConfig, 'uploads' | 'uploadsDir'>): void {
  const { uploads } = config;
  if (uploads.provider !== 'local') return;
  const missing = [
    ...(uploads.uploadKeys === null ? ['UPLOAD_ACCESS_KEY and UPLOAD_SECRET_KEY'] : []),
    ...(uploads.evidenceUrlSecret === null ? ['EVIDENCE_URL_SECRET'] : []),
    ...(value(env, 'UPLOADS_DIR') === undefined ? ['UPLOADS_DIR (the shared volume the images live on)'] : []),
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
  const dataDir = fromRoot(value(env, 'DATA_DIR') ?? './data');
  const uploadsDir = fromRoot(value(env, 'UPLOADS_DIR') ?? join(dataDir, 'uploads'));
  const instances = (value(env, 'INSTANCES') ?? 'single').toLowerCase();
  if (!(INSTANCES as readonly string[]).includes(instances)) {
    throw new ConfigError('INSTANCES', `must be single or multi, got "${instances}"`);
  }

  const initAdminPassword = value(env, 'INIT_ADMIN_PASSWORD');
  if (initAdminPassword !== undefined && (initAdminPassword.length < PASSWORD_MIN || initAdminPassword.length > PASSWORD_MAX)) {
    throw new ConfigError('INIT_ADMIN_PASSWORD', `must be ${PASSWORD_MIN}–${PASSWORD_MAX} characters long`);
  }

  const logLevel = (value(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

  const host = value(env, 'HOST') ?? '0.0.0.0';

  let uploads: UploadsConfig;
  try {
    uploads = readUploadsConfig((name) => value(env, name));
  } catch (error) {
    if (error instanceof UploadConfigError) throw new ConfigError(error.variable, error.detail);
    throw error;
  }

  const database = parseDatabaseUrl(value(env, 'DATABASE_URL'), dataDir);
  if (uploads.provider !== 'local' && value(env, 'UPLOADS_DIR') !== undefined) {
    throw new ConfigError(
      'UPLOADS_DIR',
      'is for the embedded upload host; with the cloud storage provider (QINIU_*) the images live in its bucket',
    );
  }
  const totpRequired = (value(env, 'TOTP_REQUIRED') ?? 'admins').toLowerCase();
  if (!(TOTP_REQUIRED as readonly string[]).includes(totpRequired)) {
    throw new ConfigError('TOTP_REQUIRED', `must be admins, staff or none, got "${totpRequired}"`);
  }
  const totpSecretKey = value(env, 'TOTP_SECRET_KEY') ?? null;
  if (totpSecretKey !== null && totpSecretKey.length < TOTP_SECRET_KEY_MIN) {
    throw new ConfigError('TOTP_SECRET_KEY', `must be at least ${TOTP_SECRET_KEY_MIN} characters, got ${totpSecretKey.length}`);
  }
  const totp: TotpConfig = { required: totpRequired as TotpRequired, secretKey: totpSecretKey };
  checkInstances(env, { instances: instances as Instances, database, uploads, uploadsDir, totp });

  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host,
    dataDir,
    uploadsDir,
    instances: instances as Instances,
    database,
    dbLimits: {
      poolSize: integer(env, 'DB_POOL_SIZE', DEFAULT_DB_LIMITS.poolSize, 1, 1000),
      statementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_SECONDS', DEFAULT_DB_LIMITS.statementTimeoutMs / 1000, 0, 3600) * 1000,
      lockTimeoutMs: integer(env, 'DB_LOCK_TIMEOUT_SECONDS', DEFAULT_DB_LIMITS.lockTimeoutMs / 1000, 0, 3600) * 1000,
      acquireTimeoutMs: integer(env, 'DB_ACQUIRE_TIMEOUT_SECONDS', DEFAULT_DB_LIMITS.acquireTimeoutMs / 1000, 1, 3600) * 1000,
    },
    initAdminPassword,
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 12, 1, 24 * 365),
    sessionRememberDays: integer(env, 'SESSION_REMEMBER_DAYS', 14, 1, 365),
    trustProxy: proxyHops(env, 'TRUST_PROXY'),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_SECONDS', 120, 0, 3600) * 1000,
    connectionTimeoutMs: integer(env, 'CONNECTION_TIMEOUT_SECONDS', 60, 1, 3600) * 1000,
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_SECONDS', 72, 1, 3600) * 1000,
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_SECONDS', 5, 0, 60) * 1000,
    webDist: fromRoot(value(env, 'WEB_DIST') ?? 'apps/web/dist'),
    publicUrl: publicUrl(env, 'PUBLIC_URL'),
    demo: argv.includes('--demo') || boolean(env, 'DEMO', false),
    logLevel: logLevel as LogLevel,
    uploads,
    retention: {
      days: integer(env, 'RETENTION_DAYS', 180, 0, 36500),
      uploadGraceHours: integer(env, 'RETENTION_UPLOAD_HOURS', 24, 0, 24 * 3650),
      intervalMinutes: integer(env, 'RETENTION_INTERVAL_MINUTES', 60, 1, 7 * 24 * 60),
      messageDays: integer(env, 'RETENTION_MESSAGE_DAYS', 90, 0, 36500),
    },
    totp,
  };
}

/**
 * The folder the user typed the command in (npm runs scripts from the package folder and
 * keeps the original in INIT_CWD), against which a command's file arguments are resolved.
 */
export const invocationDir = (env: Env = process.env): string => value(env, 'INIT_CWD') ?? process.cwd();

/** Whether the built web app is present (its index.html exists). */
export const webDistExists = (config: Pick<AppConfig, 'webDist'>): boolean => existsSync(resolve(config.webDist, 'index.html'));
