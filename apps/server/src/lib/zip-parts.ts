/**
 * A zip held in memory (an uploaded xlsx): its measured unpacked size (read with yauzl), and
 * the same zip with its parts in another order. The reordering is ours, written by hand: no
 * maintained library copies a zip's parts without inflating and deflating them again, and it
 * needs only where each part and each central directory record starts. Decision 0021.
 */
import { fromBufferPromise, type ZipFile } from 'yauzl';

export interface ZipPart {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  /** Where the part's local header starts. */
  localOffset: number;
  /** Where its compressed data starts (after the local header). */
  dataOffset: number;
  /** Where its central directory record starts. */
  recordOffset: number;
}

export interface ZipDirectory {
  parts: ZipPart[];
  /** Where the central directory starts, and where the end-of-central-directory record starts. */
  directoryOffset: number;
  endOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_RECORD = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** The central directory of `data`, or null when it is not a zip this reads (no end record, a record out of bounds, zip64). */
export function zipDirectory(data: Buffer): ZipDirectory | null {
  const floor = Math.max(0, data.length - 65_557);
  let end = -1;
  for (let at = data.length - 22; at >= floor; at--) {
    if (data.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const count = data.readUInt16LE(end + 10);
  const directoryOffset = data.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff || directoryOffset > end) return null;
  const parts: ZipPart[] = [];
  let p = directoryOffset;
  for (let e = 0; e < count; e++) {
    if (p + 46 > end || data.readUInt32LE(p) !== DIRECTORY_RECORD) return null;
    const nameLength = data.readUInt16LE(p + 28);
    const localOffset = data.readUInt32LE(p + 42);
    const compressedSize = data.readUInt32LE(p + 20);
    if (localOffset + 30 > directoryOffset || data.readUInt32LE(localOffset) !== LOCAL_HEADER) return null;
    const dataOffset = localOffset + 30 + data.readUInt16LE(localOffset + 26) + data.readUInt16LE(localOffset + 28);
    if (dataOffset + compressedSize > directoryOffset) return null;
    parts.push({
      name: data.toString('utf8', p + 46, p + 46 + nameLength),
      method: data.readUInt16LE(p + 10),
      compressedSize,
      localOffset,
      dataOffset,
      recordOffset: p,
    });
    p += 46 + nameLength + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
  }
  return { parts, directoryOffset, endOffset: end };
}

/**
 * The unpacked size of the parts, measured by inflating them with yauzl (not as declared: a zip
 * can lie, and yauzl stops a part that inflates past its declared size), stopping once past
 * `limit`; null when the zip is malformed, a part cannot be inflated or uses another method.
 * Guards the server's memory against a small file that unpacks to gigabytes.
 */
export async function zipUnpackedSize(data: Buffer, limit: number): Promise<number | null> {
  let zip: ZipFile;
  try {
    zip = await fromBufferPromise(data, { lazyEntries: true, validateEntrySizes: true });
  } catch {
    return null;
  }
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) return null;
      const stream = await zip.openReadStreamPromise(entry);
      total = await new Promise<number>((resolve, reject) => {
        let size = total;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) {
            stream.destroy();
            resolve(size);
          }
        });
        stream.on('end', () => resolve(size));
        stream.on('error', reject);
      });
      if (total > limit) return total;
    }
  } catch {
    return null;
  } finally {
    zip.close();
  }
  return total;
}

/**
 * The same zip with the parts `first` picks moved in front of all others, in their stored
 * order (each part keeps its local header, data and any data descriptor byte for byte; the
 * central directory is rewritten with the new offsets). A streaming reader, which meets the
 * parts in stored order, then reads those before everything that depends on them.
 */
export function withPartsFirst(data: Buffer, directory: ZipDirectory, first: (name: string) => boolean): Buffer {
  const byOffset = [...directory.parts].sort((a, b) => a.localOffset - b.localOffset);
  const extent = new Map<ZipPart, [number, number]>();
  byOffset.forEach((part, i) => extent.set(part, [part.localOffset, byOffset[i + 1]?.localOffset ?? directory.directoryOffset]));
  const order = [...byOffset.filter((p) => first(p.name)), ...byOffset.filter((p) => !first(p.name))];

  const chunks: Buffer[] = [];
  const newOffset = new Map<ZipPart, number>();
  let at = 0;
  for (const part of order) {
    const [from, to] = extent.get(part)!;
    newOffset.set(part, at);
    chunks.push(data.subarray(from, to));
    at += to - from;
  }
  const directoryStart = at;
  directory.parts.forEach((part, i) => {
    const record = Buffer.from(data.subarray(part.recordOffset, directory.parts[i + 1]?.recordOffset ?? directory.endOffset));
    record.writeUInt32LE(newOffset.get(part)!, 42);
    chunks.push(record);
  });
  const end = Buffer.from(data.subarray(directory.endOffset));
  end.writeUInt32LE(directoryStart, 16);
  chunks.push(end);
  return Buffer.concat(chunks);
}
