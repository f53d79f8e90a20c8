/**
 * Faults (docs/reliability.md "Faults"): the data folder's disk full, then read-only, during uploads to the embedded
 * host (a form upload and a chunked upload's part) and, on SQLite, during the database's own
 * writes. The data folder (DATA_DIR: the SQLite file and uploads/) is a small tmpfs the test
 * mounts (the test runs as root, as CI does); "full" is a filler file taking the space left,
 * "read-only" a remount with `ro`. Asserted: the user gets a clear error (the provider's error
 * code and message from the upload host, the API's envelope), nothing is corrupted (no partial
 * file under files/ or tmp/, the books hold, SQLite's integrity check passes), and everything
 * works again, without a restart, once the space or write access returns.
 *
 * Where the mount is refused (no root, a container without CAP_SYS_ADMIN) the file fails with
 * that reason: it does not pass without having made the fault.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmdirSync, statfsSync, statSync, writeFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { OrderItem, UploadTokenData } from '@clearplay/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBytes } from '../modules/uploads/host/test-support.ts';
import {
  call,
  createTestContext,
  createUser,
  loginAs,
  multipartForm,
  testDbKind,
  type LoggedIn,
  type TestContext,
} from '../test/context.ts';
import { orderBody } from '../test/orders.ts';
import { readBooks } from './books.ts';

const MB = 1024 * 1024;
const FULL = process.env.RELIABILITY === 'full';
/** The tmpfs: room for the migrated SQLite database, its WAL and a few images. */
const DISK_MB = FULL ? 64 : 24;

let mountPoint: string;
let mounted = false;
let ctx: TestContext;
let inspector: LoggedIn;
let shop: { id: number };
let filler: string;
let creates = 0;

function mount(...args: string[]): void {
  execFileSync('mount', args, { stdio: 'pipe' });
}

/** Fills the disk: a filler file as large as the space left (tmpfs allocates as it is written). */
function fillDisk(): void {
  const free = statfsSync(mountPoint).bavail * statfsSync(mountPoint).bsize;
  const chunk = Buffer.alloc(MB, 1);
  let left = free;
  writeFileSync(filler, Buffer.alloc(0));
  try {
    while (left > 0) {
      writeFileSync(filler, chunk.subarray(0, Math.min(left, MB)), { flag: 'a' });
      left -= MB;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  // Whatever a partial block left.
  for (let size = 64 * 1024; size >= 512; size /= 2) {
    try {
      for (;;) writeFileSync(filler, Buffer.alloc(size, 1), { flag: 'a' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    }
  }
}

const freeDisk = () => unlinkSync(filler);

/** Files under the uploads folder: files/ (keyed images), tmp/, multipart/. */
function uploadFiles(): string[] {
  const root = join(mountPoint, 'uploads');
  return (readdirSync(root, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((name) => statSync(join(root, name)).isFile())
    .map((name) => relative(root, join(root, name)))
    .sort();
}

beforeAll(async () => {
  mountPoint = mkdtempSync(join(tmpdir(), 'clearplay-disk-'));
  try {
    mount('-t', 'tmpfs', '-o', `size=${DISK_MB}m`, 'tmpfs', mountPoint);
  } catch (error) {
    throw new Error(
      `this test makes a small tmpfs and needs root where mount is allowed: ${String((error as { stderr?: unknown }).stderr ?? error)}`,
      { cause: error },
    );
  }
  mounted = true;
  filler = join(mountPoint, 'filler');
  // DATA_DIR on the tmpfs: the uploads, and on SQLite the database file.
  ctx = await createTestContext({ env: { DATA_DIR: mountPoint } });
  inspector = await loginAs(ctx, 'inspector');
  shop = await createUser(ctx, 'shop');
  await ctx.db.updateTable('users').set({ defaultPriceCheat: 5000 }).where('id', '=', shop.id).execute();
}, 60_000);

afterAll(async () => {
  if (mounted) {
    try {
      execFileSync('umount', [join(mountPoint, 'uploads')], { stdio: 'pipe' });
    } catch {
      // no bind mount left
    }
  }
  await ctx?.destroy();
  if (mounted) execFileSync('umount', [mountPoint]);
  rmdirSync(mountPoint);
});

async function token(): Promise<UploadTokenData> {
  const res = await call<UploadTokenData>(ctx, 'GET', '/api/admin/upload/token?purpose=proof', { as: inspector });
  expect(res.status, res.msg).toBe(200);
  return res.data;
}

/** A form upload of `bytes` to the host; its status and body. */
async function formUpload(bytes: Buffer): Promise<{ http: number; body: Record<string, unknown> }> {
  const { uploadToken, key } = await token();
  const form = await multipartForm([
    ['token', uploadToken],
    ['key', key],
    ['file', { body: bytes, name: 'proof.png', type: 'image/png' }],
  ]);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/upload',
    headers: { 'content-type': form.contentType },
    payload: form.payload,
  });
  return { http: res.statusCode, body: res.json() };
}

/** A chunked upload's first part (1 MB) to the host; its status and body, and the upload's folder. */
async function partUpload(bytes: Buffer): Promise<{ http: number; body: Record<string, unknown> }> {
  const { uploadToken, key } = await token();
  const path = `/upload/buckets/clearplay/objects/${Buffer.from(key).toString('base64url')}/uploads`;
  const headers = { authorization: `UpToken ${uploadToken}` };
  const init = await ctx.app.inject({ method: 'POST', url: path, headers });
  if (init.statusCode !== 200) return { http: init.statusCode, body: init.json() };
  const { uploadId } = init.json<{ uploadId: string }>();
  const res = await ctx.app.inject({
    method: 'PUT',
    url: `${path}/${uploadId}/1`,
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
  return { http: res.statusCode, body: res.json() };
}

function createOrder(): Promise<{ http: number; status: number; msg: string; data: unknown }> {
  const n = ++creates;
  return call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
    as: inspector,
    headers: { 'accept-language': 'en-US' },
    payload: orderBody(
      { userId: shop.id, inspectorId: inspector.id, amount: 5000 },
      { objWechat: `disk_${n}`, mac: `fd:00:00:00:00:${n.toString(16).padStart(2, '0')}` },
    ),
  });
}

const UNAVAILABLE = { http: 503, status: 503, msg: 'The service is briefly unavailable, please try again shortly' };

describe.each([
  { fault: 'full', make: fillDisk, undo: freeDisk, hostError: 'no space left on the storage' },
  {
    // The uploads folder only: a file system cannot be remounted read-only while SQLite holds its
    // file open for writing ("mount point is busy"); a read-only bind mount of uploads/ can.
    fault: 'read-only',
    make: () => {
      const uploads = join(mountPoint, 'uploads');
      mount('--bind', uploads, uploads);
      mount('-o', 'remount,bind,ro', uploads);
    },
    undo: () => execFileSync('umount', [join(mountPoint, 'uploads')]),
    hostError: 'the storage is read-only',
  },
])('the data folder $fault', ({ fault, make, undo, hostError }) => {
  it("an upload gets the host's clear error, nothing partial is left, and the same upload works once the disk is back", async () => {
    const image = pngBytes(2 * MB, 7);
    const before = uploadFiles();
    const books = await readBooks(ctx.db);
    make();
    let form: Awaited<ReturnType<typeof formUpload>>;
    let part: Awaited<ReturnType<typeof partUpload>>;
    const started = performance.now();
    try {
      form = await formUpload(image);
      part = await partUpload(image.subarray(0, MB));
    } finally {
      undo();
    }
    const took = performance.now() - started;
    // The provider's code for a failed server operation, with a message that says why.
    expect(form).toEqual({ http: 599, body: { error: hostError } });
    expect(part).toEqual({ http: 599, body: { error: hostError } });
    // No partial file: files/ and tmp/ as before; a chunked upload's folder may stay (its record), no part in it.
    const after = uploadFiles();
    expect(before.filter((f) => !after.includes(f))).toEqual([]);
    expect(after.filter((f) => !before.includes(f) && !/^multipart\/[0-9a-f]{32}\/upload\.json$/.test(f))).toEqual([]);
    expect((await readBooks(ctx.db)).orders).toEqual(books.orders);

    // Space or write access back: the same uploads go through, no restart.
    const again = await formUpload(image);
    expect(again.http, JSON.stringify(again.body)).toBe(200);
    const served = await ctx.app.inject({ method: 'GET', url: String(again.body.url ?? `/upload/files/${String(again.body.key)}`) });
    expect(Buffer.compare(served.rawPayload, image)).toBe(0);
    const againPart = await partUpload(image.subarray(0, MB));
    expect(againPart.http, JSON.stringify(againPart.body)).toBe(200);
    console.log(
      `faults-disk (${ctx.config.database.dialect}): disk ${fault} during a form upload and a part: ${form.http} "${String(form.body.error)}" in ${Math.round(took)} ms, no partial file; both work once the disk is back`,
    );
  });

  if (testDbKind() === 'sqlite' && fault === 'full')
    it('SQLite writes answer the 503 envelope, reads go on, the database is intact, and writes work again once the disk is back', async () => {
      // A first create, so the WAL holds no room for free (a checkpoint resets it).
      expect((await createOrder()).status).toBe(200);
      await sql`pragma wal_checkpoint(truncate)`.execute(ctx.db);
      const books = await readBooks(ctx.db);
      make();
      let refused: Awaited<ReturnType<typeof createOrder>>[];
      let list: Awaited<ReturnType<typeof call>>;
      try {
        refused = [await createOrder(), await createOrder()];
        list = await call(ctx, 'GET', '/api/admin/order/list?page=1&pageSize=5', { as: inspector });
      } finally {
        undo();
      }
      for (const r of refused) expect({ http: r.http, status: r.status, msg: r.msg }).toEqual(UNAVAILABLE);
      expect(list.status).toBe(200);
      const after = await readBooks(ctx.db);
      expect(after.broken).toEqual([]);
      expect(after.orders).toEqual(books.orders);
      const integrity = await sql<{ integrityCheck: string }>`pragma integrity_check`.execute(ctx.db);
      expect(integrity.rows).toEqual([{ integrityCheck: 'ok' }]);
      const recovered = await createOrder();
      expect(recovered.status, recovered.msg).toBe(200);
      expect((await readBooks(ctx.db)).orders.n).toBe(books.orders.n + 1);
      console.log(
        `faults-disk (sqlite): disk ${fault} during order creates: ${refused.length} × 503 envelope, reads served, integrity ok, books hold; the next create after works`,
      );
    });
});
