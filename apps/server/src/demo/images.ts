/**
 * The demo's evidence images: a few small PNG files drawn in code (a certificate, a proof
 * screenshot, a photo of the target's set-up, each in three tints), stored where the embedded
 * upload host keeps its files (`<uploadsDir>/files/<key>`) under keys of the shape it
 * issues (`evidence/<purpose>/<yyyymm>/<32 hex>`), and referenced by orders as the uploader
 * references them: `/upload/files/<key>`.
 */
import { createHash } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { OrderImageKind, UploadPurpose } from '@clearplay/contract';
import type { Db } from '../db/index.ts';
import { KEY_PREFIX, pathForKey } from '../modules/uploads/keys.ts';
import { LOCAL_UPLOAD_PREFIX } from '../modules/uploads/uploads.config.ts';

type Rgb = readonly [number, number, number];

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGB PNG of width × height whose pixel (x, y) is `paint(x, y)`. */
export function png(width: number, height: number, paint: (x: number, y: number) => Rgb): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height); // filter byte 0 (none) on every row
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set(paint(x, y), y * stride + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const W = 240;
const H = 160;
const WHITE: Rgb = [250, 250, 250];

/** A detection certificate: a header band, lines of text, a round seal. */
const certificate = (tint: Rgb) =>
  png(W, H, (x, y) => {
    if (y < 28) return tint;
    const seal = (x - 190) ** 2 + (y - 115) ** 2;
    if (seal < 26 ** 2 && seal > 21 ** 2) return [200, 40, 40];
    if (x > 20 && x < 150 && y > 44 && (y - 44) % 18 < 5) return [120, 120, 130];
    return WHITE;
  });

/** A proof screenshot: a dark window with process rows, the cheat's rows highlighted. */
const proof = (tint: Rgb) =>
  png(W, H, (x, y) => {
    if (y < 16) return [60, 60, 70];
    const row = Math.floor((y - 16) / 12);
    if ((y - 16) % 12 < 2) return [30, 30, 36];
    if (row === 3 || row === 7) return tint;
    return x < 40 ? [70, 110, 160] : [42, 44, 52];
  });

/** The target's set-up: a monitor on a desk. */
const setup = (tint: Rgb) =>
  png(W, H, (x, y) => {
    if (y > 120) return [150, 110, 70];
    if (x > 50 && x < 190 && y > 20 && y < 100) return x > 56 && x < 184 && y > 26 && y < 94 ? tint : [20, 20, 20];
    if (x > 110 && x < 130 && y >= 100 && y <= 120) return [40, 40, 40];
    return [225, 228, 235];
  });

const PURPOSE: Record<OrderImageKind, UploadPurpose> = { certImages: 'cert', proofImages: 'proof', personCertImages: 'env' };
const DRAW: Record<OrderImageKind, (tint: Rgb) => Buffer> = { certImages: certificate, proofImages: proof, personCertImages: setup };
const TINTS: readonly Rgb[] = [
  [22, 119, 255],
  [82, 196, 26],
  [250, 140, 22],
];

export interface DemoImage {
  kind: OrderImageKind;
  key: string;
  /** How an order references it. */
  url: string;
  data: Buffer;
}

/** The month segment of the keys: the month of the first demo order, like a key issued then. */
const monthOf = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

/** The demo's images, per kind. The key's hex part is a hash of the content, so the same image keeps its key. */
export function demoImages(firstOrderAt: number): Record<OrderImageKind, DemoImage[]> {
  const out = { certImages: [], proofImages: [], personCertImages: [] } as Record<OrderImageKind, DemoImage[]>;
  for (const kind of Object.keys(PURPOSE) as OrderImageKind[]) {
    for (const tint of TINTS) {
      const data = DRAW[kind](tint);
      const hex = createHash('sha256').update(data).digest('hex').slice(0, 32);
      const key = `${KEY_PREFIX[PURPOSE[kind]]}/${monthOf(firstOrderAt)}/${hex}`;
      out[kind].push({ kind, key, url: `${LOCAL_UPLOAD_PREFIX}/files/${key}`, data });
    }
  }
  return out;
}

/** Writes the images that are not there yet into the embedded host's folder. */
export async function storeImages(uploadsDir: string, images: Record<OrderImageKind, DemoImage[]>): Promise<void> {
  const filesDir = join(uploadsDir, 'files');
  for (const image of Object.values(images).flat()) {
    const path = pathForKey(filesDir, image.key);
    if (path === null) throw new Error(`demo image key ${image.key} is not a safe key`);
    if (await stat(path).catch(() => null)) continue;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, image.data);
  }
}

/** The demo accounts that have an avatar (decision 0062); shop0001 has none, so its initials show until it uploads one. */
export const DEMO_AVATAR_USERS = ['admin01', 'inspector01', 'inspector02', 'shop0002', 'shop0003', 'shop0005'] as const;
const AVATAR_SIZE = 96;
const AVATAR_TINTS: readonly Rgb[] = [
  [22, 119, 255],
  [82, 196, 26],
  [250, 140, 22],
  [114, 46, 209],
  [235, 47, 150],
  [19, 194, 194],
];

/** A portrait avatar: a head and shoulders on a tinted ground, one tint per account. */
export function avatarImage(index: number): Buffer {
  const tint = AVATAR_TINTS[index % AVATAR_TINTS.length]!;
  const light: Rgb = [Math.min(255, tint[0] + 150), Math.min(255, tint[1] + 150), Math.min(255, tint[2] + 150)];
  const c = AVATAR_SIZE / 2;
  return png(AVATAR_SIZE, AVATAR_SIZE, (x, y) => {
    const head = (x - c) ** 2 + (y - 38) ** 2 < 17 ** 2;
    const body = (x - c) ** 2 / 32 ** 2 + (y - 96) ** 2 / 30 ** 2 < 1;
    return head || body ? light : tint;
  });
}

/**
 * Gives each of DEMO_AVATAR_USERS that has none an avatar: a drawn PNG stored as the embedded
 * host stores an `avatar` upload (`avatar/<user id>/<32 hex>`), and users.avatar naming it as the
 * uploader does (`/upload/files/<key>`). Answers how many were set.
 */
export async function seedDemoAvatars(db: Db, uploadsDir: string): Promise<number> {
  const filesDir = join(uploadsDir, 'files');
  const users = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('username', 'in', [...DEMO_AVATAR_USERS])
    .where('avatar', '=', '')
    .execute();
  let set = 0;
  for (const user of users) {
    const data = avatarImage(DEMO_AVATAR_USERS.indexOf(user.username as (typeof DEMO_AVATAR_USERS)[number]));
    const key = `${KEY_PREFIX.avatar}/${user.id}/${createHash('sha256').update(data).digest('hex').slice(0, 32)}`;
    const path = pathForKey(filesDir, key);
    if (path === null) throw new Error(`demo avatar key ${key} is not a safe key`);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, data);
    await db
      .updateTable('users')
      .set({ avatar: `${LOCAL_UPLOAD_PREFIX}/files/${key}` })
      .where('id', '=', user.id)
      .where('avatar', '=', '')
      .execute();
    set += 1;
  }
  return set;
}
