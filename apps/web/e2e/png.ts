// Valid PNG files made in the browser tests: the upload host checks the content (magic
// bytes), not the name.
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export type PngFill = 'noise' | 'gradient' | readonly [number, number, number];

/**
 * A valid width×height RGB PNG: one colour, a gradient, or 'noise' — random pixels that do
 * not compress, so the file is about width × height × 3 bytes (stored deflate blocks keep
 * building it fast).
 */
export function png(width: number, height: number, fill: PngFill): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const stride = width * 3 + 1;
  const raw = fill === 'noise' ? randomBytes(stride * height) : Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    raw[y * stride] = 0; // filter: none
    if (fill === 'noise') continue;
    for (let x = 0; x < width; x += 1) {
      const at = y * stride + 1 + x * 3;
      if (fill === 'gradient') raw.set([(x * 255) / width, (y * 255) / height, 160], at);
      else raw.set(fill, at);
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: fill === 'noise' ? 0 : 6 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
