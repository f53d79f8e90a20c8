import type { ImageMimeType } from '@clearplay/contract';

/** How many leading bytes `detectImageType` needs to see. */
export const IMAGE_SNIFF_BYTES = 32;

const startsWith = (head: Uint8Array, bytes: readonly number[], offset = 0): boolean =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);

const ascii = (head: Uint8Array, offset: number, length: number): string =>
  head.length >= offset + length ? String.fromCharCode(...head.subarray(offset, offset + length)) : '';

/** ISO-BMFF brands (the `ftyp` box) of the image formats we accept. */
const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const HEIF_BRANDS = new Set(['mif1', 'msf1']);

function isoBmffImage(head: Uint8Array): ImageMimeType | null {
  if (ascii(head, 4, 4) !== 'ftyp') return null;
  const major = ascii(head, 8, 4);
  if (AVIF_BRANDS.has(major)) return 'image/avif';
  if (HEIC_BRANDS.has(major)) return 'image/heic';
  if (HEIF_BRANDS.has(major)) {
    // A generic HEIF major brand: the compatible brands (after the minor version) tell more.
    for (let offset = 16; offset + 4 <= Math.min(head.length, IMAGE_SNIFF_BYTES); offset += 4) {
      const brand = ascii(head, offset, 4);
      if (AVIF_BRANDS.has(brand)) return 'image/avif';
      if (HEIC_BRANDS.has(brand)) return 'image/heic';
    }
    return 'image/heif';
  }
  return null;
}

/**
 * The image type of a file from its first bytes (its "magic number"), never from its name
 * or the type the client claims. Null when the bytes are not one of the accepted images.
 */
export function detectImageType(head: Uint8Array): ImageMimeType | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  const six = ascii(head, 0, 6);
  if (six === 'GIF87a' || six === 'GIF89a') return 'image/gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return 'image/webp';
  // BMP: "BM", then the file size, two reserved zero words, and a pixel-data offset.
  if (startsWith(head, [0x42, 0x4d]) && head.length >= 10 && head[6] === 0 && head[7] === 0 && head[8] === 0 && head[9] === 0) {
    return 'image/bmp';
  }
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  return isoBmffImage(head);
}

/**
 * Whether a mime type satisfies a put policy's `mimeLimit`: a `;`-separated list of types
 * or wildcards (`image/*`), or, when it starts with `!`, the list of types refused.
 */
export function mimeAllowed(mimeType: string, mimeLimit: string | undefined): boolean {
  if (mimeLimit === undefined || mimeLimit.trim() === '') return true;
  const negate = mimeLimit.startsWith('!');
  const patterns = (negate ? mimeLimit.slice(1) : mimeLimit)
    .split(';')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  const type = mimeType.toLowerCase();
  const matches = patterns.some((p) => (p.endsWith('/*') ? type.startsWith(p.slice(0, -1)) : p === type));
  return negate ? !matches : matches;
}
