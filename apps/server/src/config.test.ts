import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, REPO_ROOT, SETTINGS } from './config.ts';

describe('loadConfig', () => {
  it('has the documented defaults, resolved against the repository root', () => {
    const config = loadConfig({}, []);
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: join(REPO_ROOT, 'data'),
      uploadsDir: join(REPO_ROOT, 'data', 'uploads'),
      instances: 'single',
      database: { dialect: 'sqlite', file: join(REPO_ROOT, 'data', 'clearplay.db') },
      dbLimits: { poolSize: 20, statementTimeoutMs: 10_000, lockTimeoutMs: 5_000, acquireTimeoutMs: 5_000 },
      initAdminPassword: undefined,
      sessionTtlHours: 12,
      sessionRememberDays: 14,
      trustProxy: 0,
      corsOrigins: [],
      requestTimeoutMs: 120_000,
      connectionTimeoutMs: 60_000,
      keepAliveTimeoutMs: 72_000,
      shutdownGraceMs: 5_000,
      uploads: {
        provider: 'local',
        maxImageBytes: 20 * 1024 * 1024,
        tokenTtlSeconds: 900,
        uploadKeys: null,
        evidenceUrlTtlSeconds: 900,
        evidenceExportUrlTtlSeconds: 86_400,
        evidenceUrlSecret: null,
      },
      webDist: join(REPO_ROOT, 'apps', 'web', 'dist'),
      publicUrl: null,
      demo: false,
      logLevel: 'info',
      retention: { days: 180, uploadGraceHours: 24, intervalMinutes: 60, messageDays: 90 },
      totp: { required: 'admins', secretKey: null },
    });
    expect(resolve(REPO_ROOT, 'apps/server/src/config.ts')).toBe(resolve(import.meta.dirname, 'config.ts'));
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/clearplay',
        INIT_ADMIN_PASSWORD: 'secret123',
        SESSION_TTL_HOURS: '2',
        SESSION_REMEMBER_DAYS: '30',
        TRUST_PROXY: 'true',
        WEB_DIST: '/srv/web',
        DEMO: '1',
        LOG_LEVEL: 'warn',
        RETENTION_DAYS: '0',
        RETENTION_UPLOAD_HOURS: '48',
        RETENTION_INTERVAL_MINUTES: '15',
        RETENTION_MESSAGE_DAYS: '30',
        CORS_ORIGINS: 'https://admin.example.com, http://localhost:5173/',
        REQUEST_TIMEOUT_SECONDS: '30',
        CONNECTION_TIMEOUT_SECONDS: '20',
        KEEP_ALIVE_TIMEOUT_SECONDS: '10',
        SHUTDOWN_GRACE_SECONDS: '3',
        DB_POOL_SIZE: '40',
        DB_STATEMENT_TIMEOUT_SECONDS: '0',
        DB_LOCK_TIMEOUT_SECONDS: '2',
        DB_ACQUIRE_TIMEOUT_SECONDS: '3',
        TOTP_REQUIRED: 'Staff',
        TOTP_SECRET_KEY: 'k'.repeat(32),
      },
      [],
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      database: { dialect: 'sqlite', file: '/var/lib/clearplay/clearplay.db' },
      initAdminPassword: 'secret123',
      sessionTtlHours: 2,
      sessionRememberDays: 30,
      trustProxy: 1,
      webDist: '/srv/web',
      demo: true,
      logLevel: 'warn',
      retention: { days: 0, uploadGraceHours: 48, intervalMinutes: 15, messageDays: 30 },
      corsOrigins: ['https://admin.example.com', 'http://localhost:5173'],
      requestTimeoutMs: 30_000,
      connectionTimeoutMs: 20_000,
      keepAliveTimeoutMs: 10_000,
      shutdownGraceMs: 3_000,
      dbLimits: { poolSize: 40, statementTimeoutMs: 0, lockTimeoutMs: 2_000, acquireTimeoutMs: 3_000 },
      totp: { required: 'staff', secretKey: 'k'.repeat(32) },
    });
  });

  it('refuses an unknown TOTP_REQUIRED and a short TOTP_SECRET_KEY, naming the variable', () => {
    expect(() => loadConfig({ TOTP_REQUIRED: 'everyone' }, [])).toThrow(
      'Invalid configuration: TOTP_REQUIRED must be admins, staff or none, got "everyone"',
    );
    expect(() => loadConfig({ TOTP_SECRET_KEY: 'short' }, [])).toThrow(
      'Invalid configuration: TOTP_SECRET_KEY must be at least 32 characters, got 5',
    );
    expect(loadConfig({ TOTP_REQUIRED: 'none' }, []).totp.required).toBe('none');
  });

  it('picks the database from DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/cp' }, []).database).toEqual({
      dialect: 'postgres',
      url: 'postgres://u:p@db:5432/cp',
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/cp' }, []).database.dialect).toBe('postgres');
    expect(loadConfig({ DATABASE_URL: 'mysql://root@db:3306/cp' }, []).database).toEqual({
      dialect: 'mysql',
      url: 'mysql://root@db:3306/cp',
    });
  });

  it('turns demo mode on with --demo', () => {
    expect(loadConfig({}, ['--demo']).demo).toBe(true);
  });

  it('reads TRUST_PROXY as the number of proxies in front: false 0, true 1, or a count', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }, []).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'on' }, []).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }, []).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '0' }, []).trustProxy).toBe(0);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'ftp://host/db' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'mysql://root@host' }, 'DATABASE_URL'],
    [{ INIT_ADMIN_PASSWORD: '12345' }, 'INIT_ADMIN_PASSWORD'],
    [{ INIT_ADMIN_PASSWORD: 'x'.repeat(21) }, 'INIT_ADMIN_PASSWORD'],
    [{ SESSION_TTL_HOURS: '0' }, 'SESSION_TTL_HOURS'],
    [{ SESSION_REMEMBER_DAYS: '1.5' }, 'SESSION_REMEMBER_DAYS'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '11' }, 'TRUST_PROXY'],
    [{ DEMO: 'sure' }, 'DEMO'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ RETENTION_DAYS: '-1' }, 'RETENTION_DAYS'],
    [{ RETENTION_UPLOAD_HOURS: 'day' }, 'RETENTION_UPLOAD_HOURS'],
    [{ RETENTION_INTERVAL_MINUTES: '0' }, 'RETENTION_INTERVAL_MINUTES'],
    [{ CORS_ORIGINS: '*' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example.com/app' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'ftp://a.example.com' }, 'CORS_ORIGINS'],
    [{ REQUEST_TIMEOUT_SECONDS: 'soon' }, 'REQUEST_TIMEOUT_SECONDS'],
    [{ SHUTDOWN_GRACE_SECONDS: '120' }, 'SHUTDOWN_GRACE_SECONDS'],
    [{ DB_POOL_SIZE: '0' }, 'DB_POOL_SIZE'],
    [{ DB_STATEMENT_TIMEOUT_SECONDS: '2.5' }, 'DB_STATEMENT_TIMEOUT_SECONDS'],
    [{ DB_LOCK_TIMEOUT_SECONDS: 'long' }, 'DB_LOCK_TIMEOUT_SECONDS'],
    [{ DB_ACQUIRE_TIMEOUT_SECONDS: '0' }, 'DB_ACQUIRE_TIMEOUT_SECONDS'],
    [{ PUBLIC_URL: 'check.example.com' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://check.example.com' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'https://check.example.com/?x=1' }, 'PUBLIC_URL'],
    [{ INSTANCES: 'three' }, 'INSTANCES'],
    [{ UPLOAD_ACCESS_KEY: 'shared-ak' }, 'UPLOAD_SECRET_KEY'],
  ])('rejects %o naming %s', (env, variable) => {
    let error: unknown;
    try {
      loadConfig(env, []);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).toContain(variable);
  });
});

describe('the messages of a refused value', () => {
  const message = (env: Record<string, string>): string => {
    try {
      loadConfig(env, []);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    throw new Error('the configuration was accepted');
  };

  it('say what a whole number must be, its bounds, and what was written, which is read in digits only', () => {
    for (const written of ['1.5', '1e3', '-1', '0x10', '+5', 'abc', '70000']) {
      expect(message({ PORT: written })).toBe(`Invalid configuration: PORT must be a whole number from 0 to 65535, got "${written}"`);
    }
    expect(message({ SESSION_REMEMBER_DAYS: '1.0' })).toBe(
      'Invalid configuration: SESSION_REMEMBER_DAYS must be a whole number from 1 to 365, got "1.0"',
    );
    expect(loadConfig({ PORT: ' 0080 ' }, []).port).toBe(80);
  });

  it('name the words a switch, a choice or TRUST_PROXY takes', () => {
    expect(message({ DEMO: 'sure' })).toBe('Invalid configuration: DEMO must be true or false, got "sure"');
    expect(['yes', 'ON', 'True', '1'].map((word) => loadConfig({ DEMO: word }, []).demo)).toEqual([true, true, true, true]);
    expect(['no', 'Off', 'FALSE', '0'].map((word) => loadConfig({ DEMO: word }, []).demo)).toEqual([false, false, false, false]);
    expect(message({ INSTANCES: 'three' })).toBe('Invalid configuration: INSTANCES must be single or multi, got "three"');
    expect(message({ LOG_LEVEL: 'Loud' })).toBe(
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "Loud"',
    );
    expect(loadConfig({ LOG_LEVEL: 'WARN' }, []).logLevel).toBe('warn');
    expect(message({ TRUST_PROXY: 'maybe' })).toBe(
      'Invalid configuration: TRUST_PROXY must be true, false or a number of proxies in front from 0 to 10, got "maybe"',
    );
    expect(message({ TRUST_PROXY: '11' })).toBe(
      'Invalid configuration: TRUST_PROXY must be true, false or a number of proxies in front from 0 to 10, got "11"',
    );
    expect(loadConfig({ TRUST_PROXY: 'yes' }, []).trustProxy).toBe(1);
  });

  it('give a password’s or key’s length, never its text', () => {
    expect(message({ INIT_ADMIN_PASSWORD: 'short' })).toBe('Invalid configuration: INIT_ADMIN_PASSWORD must be 6–20 characters long');
    const key = 'not-long-enough-key';
    expect(message({ TOTP_SECRET_KEY: key })).toBe(
      `Invalid configuration: TOTP_SECRET_KEY must be at least 32 characters, got ${key.length}`,
    );
  });

  it('say what is wrong with a URL or an origin', () => {
    expect(message({ DATABASE_URL: 'not a url' })).toBe(
      'Invalid configuration: DATABASE_URL is not a URL (expected postgres://…, postgresql://… or mysql://…)',
    );
    expect(message({ DATABASE_URL: 'ftp://host/db' })).toBe(
      'Invalid configuration: DATABASE_URL has an unsupported scheme "ftp:" (expected postgres://, postgresql:// or mysql://)',
    );
    expect(message({ DATABASE_URL: 'mariadb://root@host' })).toBe(
      'Invalid configuration: DATABASE_URL must name a database, e.g. mysql://user@host/clearplay',
    );
    expect(loadConfig({ DATABASE_URL: 'mariadb://root@db/cp' }, []).database).toEqual({ dialect: 'mysql', url: 'mysql://root@db/cp' });
    expect(message({ CORS_ORIGINS: 'https://a.example.com, https://b.example.com/app, *' })).toBe(
      'Invalid configuration: CORS_ORIGINS must list origins like https://admin.example.com (scheme and host, no path), got "https://b.example.com/app"',
    );
    expect(message({ PUBLIC_URL: 'https://check.example.com/#top' })).toBe(
      'Invalid configuration: PUBLIC_URL must be an http(s) URL like https://check.example.com, got "https://check.example.com/#top"',
    );
  });

  it('name the first refused variable in the order the settings are declared', () => {
    expect(message({ LOG_LEVEL: 'loud', PORT: 'abc', DEMO: 'sure' })).toContain('PORT must be');
  });
});

describe('the declared settings', () => {
  it('each have a help text and a line in the README’s Configuration table', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Development'));
    for (const [name, schema] of Object.entries(SETTINGS.properties)) {
      expect((schema as { description?: string }).description, name).toMatch(/\S/);
      expect(table, name).toContain(`\`${name}\``);
    }
  });
});

describe('server start with a bad value', () => {
  it('prints one line naming the variable and exits 1, without a stack trace', () => {
    const tsx = resolve(REPO_ROOT, 'node_modules/.bin/tsx');
    const run = spawnSync(tsx, [resolve(import.meta.dirname, 'server.ts')], {
      env: { PATH: process.env.PATH, PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('Invalid configuration: PORT must be a whole number from 0 to 65535, got "eighty"');
    expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });
});

describe('PUBLIC_URL', () => {
  it('is unset by default (the request’s origin is used) and kept without a trailing slash', () => {
    expect(loadConfig({}, []).publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://check.example.com/' }, []).publicUrl).toBe('https://check.example.com');
    expect(loadConfig({ PUBLIC_URL: 'https://example.com/clearplay/' }, []).publicUrl).toBe('https://example.com/clearplay');
  });
});

describe('several instances (INSTANCES=multi)', () => {
  const PG = 'postgres://clearplay@db.internal:5432/clearplay';
  const UPLOAD_SECRET = 'upload-secret-'.padEnd(40, 'u');
  const EVIDENCE_SECRET = 'evidence-secret-'.padEnd(40, 'e');
  const TOTP_KEY = 'totp-key-'.padEnd(40, 't');
  const PROVIDER = { QINIU_ACCESS_KEY: 'cloud-ak', QINIU_SECRET_KEY: 'cloud-sk', QINIU_BUCKET: 'b', QINIU_DOMAIN: 'img.example.com' };
  let shared: string;
  beforeAll(() => {
    shared = mkdtempSync(join(tmpdir(), 'clearplay-shared-'));
  });
  afterAll(() => rmSync(shared, { recursive: true, force: true }));
  const complete = () => ({
    INSTANCES: 'multi',
    DATABASE_URL: PG,
    UPLOAD_ACCESS_KEY: 'shared-ak',
    UPLOAD_SECRET_KEY: UPLOAD_SECRET,
    EVIDENCE_URL_SECRET: EVIDENCE_SECRET,
    UPLOADS_DIR: shared,
    TOTP_SECRET_KEY: TOTP_KEY,
  });
  const without = (...names: string[]): Record<string, string> =>
    Object.fromEntries(Object.entries(complete()).filter(([name]) => !names.includes(name)));
  const refusal = (env: Record<string, string>): ConfigError => {
    try {
      loadConfig(env, []);
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error('the configuration was accepted');
  };

  it('is single by default: one machine keeps its keys and images in DATA_DIR, as before', () => {
    const config = loadConfig({ DATA_DIR: '/var/lib/clearplay' }, []);
    expect(config.instances).toBe('single');
    expect(config.uploadsDir).toBe('/var/lib/clearplay/uploads');
    expect(config.uploads).toMatchObject({ provider: 'local', uploadKeys: null, evidenceUrlSecret: null });
  });

  it('starts with the keys, the evidence secret and the shared image folder from configuration', () => {
    const config = loadConfig({ ...complete(), DATA_DIR: '/var/lib/clearplay', INSTANCES: 'Multi' }, []);
    expect(config.instances).toBe('multi');
    expect(config.uploadsDir).toBe(shared);
    expect(config.uploads).toMatchObject({
      provider: 'local',
      uploadKeys: { accessKey: 'shared-ak', secretKey: UPLOAD_SECRET },
      evidenceUrlSecret: EVIDENCE_SECRET,
    });
  });

  it('refuses SQLite outright: one file, one machine', () => {
    const error = refusal({ ...complete(), DATABASE_URL: '' });
    expect(error.variable).toBe('INSTANCES');
    expect(error.message).toBe(
      'Invalid configuration: INSTANCES is multi, but the database is SQLite: a SQLite file belongs to one machine. ' +
        'Point DATABASE_URL at PostgreSQL or MySQL/MariaDB, or run one instance',
    );
    expect(refusal({ INSTANCES: 'multi', ...PROVIDER }).variable).toBe('INSTANCES');
  });

  it('refuses the embedded upload host without shared keys, evidence secret and image folder, naming every one missing', () => {
    expect(refusal({ INSTANCES: 'multi', DATABASE_URL: PG }).message).toBe(
      'Invalid configuration: INSTANCES is multi with the embedded upload host (no QINIU_* settings), so every instance needs the same ' +
        'UPLOAD_ACCESS_KEY and UPLOAD_SECRET_KEY, EVIDENCE_URL_SECRET, UPLOADS_DIR (the shared volume the images live on); ' +
        'or store the images with the cloud storage provider (docs/deploy.md "Several instances")',
    );
    expect(refusal(without('UPLOAD_ACCESS_KEY', 'UPLOAD_SECRET_KEY')).message).toContain(
      'needs the same UPLOAD_ACCESS_KEY and UPLOAD_SECRET_KEY; or store',
    );
    expect(refusal(without('EVIDENCE_URL_SECRET')).message).toContain('needs the same EVIDENCE_URL_SECRET; or store');
    const error = refusal(without('UPLOADS_DIR'));
    expect(error.message).toContain('needs the same UPLOADS_DIR (the shared volume the images live on); or store');
    // No refusal repeats a secret's value.
    expect(error.message).not.toContain(UPLOAD_SECRET);
    expect(error.message).not.toContain(EVIDENCE_SECRET);
  });

  it('refuses to start without the shared key the authenticator secrets are encrypted with', () => {
    const error = refusal(without('TOTP_SECRET_KEY'));
    expect(error.variable).toBe('INSTANCES');
    expect(error.message).toContain('every instance needs the same TOTP_SECRET_KEY');
    expect(refusal({ INSTANCES: 'multi', DATABASE_URL: PG, ...PROVIDER }).message).toContain('TOTP_SECRET_KEY');
  });

  it('refuses an UPLOADS_DIR that is not mounted (not a directory)', () => {
    const missing = join(shared, 'not-mounted');
    const error = refusal({ ...complete(), UPLOADS_DIR: missing });
    expect(error.variable).toBe('UPLOADS_DIR');
    expect(error.message).toBe(
      `Invalid configuration: UPLOADS_DIR "${missing}" is not a directory: with INSTANCES=multi it must be the shared volume every instance mounts, mounted before the start`,
    );
  });

  it('with the cloud storage provider, its configured keys are enough; a second key pair or folder is refused', () => {
    const config = loadConfig({ INSTANCES: 'multi', DATABASE_URL: PG, ...PROVIDER, TOTP_SECRET_KEY: TOTP_KEY }, []);
    expect(config.uploads).toMatchObject({ provider: 'qiniu', accessKey: 'cloud-ak', secretKey: 'cloud-sk' });
    expect(refusal({ INSTANCES: 'multi', DATABASE_URL: PG, ...PROVIDER, UPLOADS_DIR: shared }).variable).toBe('UPLOADS_DIR');
    expect(
      refusal({ INSTANCES: 'multi', DATABASE_URL: PG, ...PROVIDER, UPLOAD_ACCESS_KEY: 'shared-ak', UPLOAD_SECRET_KEY: UPLOAD_SECRET })
        .variable,
    ).toBe('UPLOAD_ACCESS_KEY');
  });
});
