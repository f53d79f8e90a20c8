/**
 * Two instances on one database, each with its own DATA_DIR (two machines), given the same
 * upload keys, evidence secret and image folder (UPLOADS_DIR, the volume both mount). What one
 * instance issued, signed or stored, the other accepts and serves: nothing either needs lives
 * only on the other's disk (decision 0088). On PostgreSQL and MySQL they run as INSTANCES=multi;
 * on SQLite (refused with several instances) one file in this process stands in for the database.
 */
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UploadTokenData } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../app.ts';
import { loadConfig, type AppConfig } from '../../../config.ts';
import { createDb, type Db } from '../../../db/index.ts';
import { createTestContext, loginAs, testDbKind, type LoggedIn, type TestContext } from '../../../test/context.ts';
import { MultipartStaging } from './host-storage.ts';
import { LocalBlobStore, STALE_TMP_MS } from '../stores/local-blob-store.ts';
import { complete, formUpload, initUpload, pngBytes, putPart } from './test-support.ts';

const SHARED = {
  UPLOAD_ACCESS_KEY: 'clearplay-shared',
  UPLOAD_SECRET_KEY: 'shared-upload-secret-0123456789abcdefghij',
  EVIDENCE_URL_SECRET: 'shared-evidence-secret-0123456789abcdefgh',
  TOTP_SECRET_KEY: 'shared-totp-secret-key-0123456789abcdefgh',
};

let shared: string;
let firstDir: string;
let secondDir: string;
let first: TestContext;
let secondDb: Db;
let second: App;
let firstBase: string;
let secondBase: string;
let uploader: LoggedIn;

async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

beforeAll(async () => {
  shared = await mkdtemp(join(tmpdir(), 'clearplay-shared-volume-'));
  firstDir = await mkdtemp(join(tmpdir(), 'clearplay-instance-1-'));
  secondDir = await mkdtemp(join(tmpdir(), 'clearplay-instance-2-'));
  const common = { ...SHARED, UPLOADS_DIR: shared };
  // SQLite refuses INSTANCES=multi (one file, one machine); PostgreSQL and MySQL run as declared.
  const multi: Record<string, string> = testDbKind() === 'sqlite' ? {} : { INSTANCES: 'multi' };
  first = await createTestContext({ env: { ...common, ...multi, DATA_DIR: firstDir } });
  const database = first.config.database;
  const url = database.dialect === 'sqlite' ? {} : { DATABASE_URL: database.url };
  const secondConfig: AppConfig = {
    ...loadConfig({ ...common, ...multi, ...url, DATA_DIR: secondDir, WEB_DIST: first.config.webDist }, []),
    // On SQLite the two data directories would name two files: the first's stands in for the shared database.
    database,
  };
  expect(secondConfig.instances).toBe(first.config.instances);
  secondDb = createDb(database);
  second = await buildApp({ config: secondConfig, db: secondDb, logger: false });
  firstBase = await listen(first.app);
  secondBase = await listen(second);
  uploader = await loginAs(first, 'inspector');
});

afterAll(async () => {
  await second.close();
  await secondDb.destroy();
  await first.destroy();
  for (const dir of [shared, firstDir, secondDir]) await rm(dir, { recursive: true, force: true });
});

/** An upload token for an evidence image, from the first instance. */
async function tokenFromFirst(): Promise<UploadTokenData> {
  const res = await fetch(`${firstBase}/api/admin/upload/token?purpose=proof`, { headers: uploader.headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: UploadTokenData }).data;
}

describe('two instances, one database, different data directories', () => {
  it('a part sent to the second instance is accepted with the token the first issued, and the upload completes there', async () => {
    const { uploadToken, key } = await tokenFromFirst();
    const file = pngBytes(300_000, 3);
    const uploadId = await initUpload(firstBase, key, uploadToken);

    const part = await putPart(secondBase, key, uploadToken, uploadId, 1, file);
    expect(`${part.status} ${await part.clone().text()}`).toMatch(/^200 /);
    const { etag } = (await part.json()) as { etag: string };

    const done = await complete(secondBase, key, uploadToken, uploadId, { parts: [{ etag, partNumber: 1 }], fname: 'proof.png' });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ key, fsize: file.length, mimeType: 'image/png' });
  });

  it('an image uploaded through the first instance is served by the second, from the link the first signed', async () => {
    const { uploadToken, key } = await tokenFromFirst();
    const file = pngBytes(50_000, 5);
    const uploaded = await formUpload(firstBase, { file, token: uploadToken, key });
    expect(uploaded.status).toBe(200);
    const { url } = (await uploaded.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^/upload/files/${key}\\?e=\\d+&token=[\\w-]+$`));

    const served = await fetch(`${secondBase}${url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);
    // Evidence is still private on the second: the bare path is refused.
    expect((await fetch(`${secondBase}/upload/files/${key}`)).status).toBe(403);
  });

  it('keeps no keys, secret or images in either data directory', async () => {
    for (const dir of [firstDir, secondDir]) {
      const names = await readdir(dir);
      expect(names).not.toContain('upload-keys.json');
      expect(names).not.toContain('evidence-url-secret');
      expect(names).not.toContain('uploads');
    }
    expect((await readdir(shared)).sort()).toEqual(['files', 'multipart', 'tmp']);
  });
});

describe('an instance starting on the shared image folder', () => {
  it('leaves the uploads another instance has in flight, and clears only old leftovers', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'clearplay-shared-start-'));
    try {
      const store = new LocalBlobStore(folder, join(folder, 'uploads'));
      await store.prepare(true);
      const now = Date.now();
      const old = new Date(now - STALE_TMP_MS - 60_000);
      // A file another instance is streaming an upload into, and a crash's leftover.
      const inFlight = store.tmpFile();
      const leftover = store.tmpFile();
      await writeFile(inFlight, pngBytes(1000));
      await writeFile(leftover, pngBytes(1000));
      await utimes(leftover, old, old);
      // A chunked upload another instance is creating (folder made, record not yet written), and an old one without a record.
      const staging = new MultipartStaging(join(folder, 'uploads', 'multipart'));
      await staging.prepare();
      const creating = join(staging.dir, 'a'.repeat(32));
      const abandoned = join(staging.dir, 'b'.repeat(32));
      await mkdir(creating);
      await mkdir(abandoned);
      await utimes(abandoned, old, old);

      // The second instance starts.
      await new LocalBlobStore(folder, join(folder, 'uploads')).prepare(true, now);
      await new MultipartStaging(staging.dir).removeExpired(Math.floor(now / 1000));

      expect(await readdir(store.tmpDir)).toEqual([inFlight.slice(store.tmpDir.length + 1)]);
      expect(await readdir(staging.dir)).toEqual(['a'.repeat(32)]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
