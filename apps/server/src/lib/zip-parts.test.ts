import { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { withPartsFirst, zipDirectory, zipUnpackedSize, type ZipDirectory } from './zip-parts.ts';

const DEPENDENCIES = new Set(['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml']);
const isDependency = (name: string) => DEPENDENCIES.has(name);

/** Part names in stored order, walked by local headers (as a streaming reader meets them). */
function storedOrder(data: Buffer): string[] {
  const names: string[] = [];
  let at = 0;
  while ((at = data.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), at)) >= 0) {
    const nameLength = data.readUInt16LE(at + 26);
    names.push(data.toString('utf8', at + 30, at + 30 + nameLength));
    at += 30 + nameLength;
  }
  return names;
}

/** Each part's unpacked bytes, by name. */
function contents(data: Buffer, directory: ZipDirectory): Map<string, string> {
  return new Map(
    directory.parts.map((p) => {
      const body = data.subarray(p.dataOffset, p.dataOffset + p.compressedSize);
      return [p.name, (p.method === 8 ? inflateRawSync(body) : body).toString('utf8')];
    }),
  );
}

async function twoSheetWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('订单').addRow(['目标微信号', '金额']);
  workbook.getWorksheet('订单')!.addRow(['wx_1', 12.5]);
  workbook.addWorksheet('说明').addRow(['read me']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A zip written as a stream: sizes come after each part in a data descriptor. */
function streamedZip(parts: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(parts)) zip.addReadStream(Readable.from([Buffer.from(text)]), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

describe('zip parts', () => {
  it('moves the parts an exceljs workbook’s worksheets depend on in front of them, every part unchanged', async () => {
    const data = await twoSheetWorkbook();
    const directory = zipDirectory(data)!;
    // exceljs stores the sheets first, workbook.xml last: what trips its own streaming reader.
    expect(storedOrder(data).indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(storedOrder(data).indexOf('xl/workbook.xml'));

    const ordered = withPartsFirst(data, directory, isDependency);
    const names = storedOrder(ordered);
    // The four in front, in their stored order; the others after them, in theirs.
    expect(names.slice(0, 4)).toEqual(storedOrder(data).filter(isDependency));
    expect(names.slice(4)).toEqual(storedOrder(data).filter((n) => !isDependency(n)));
    expect(new Set(names.slice(0, 4))).toEqual(DEPENDENCIES);
    expect(ordered.length).toBe(data.length);
    const reread = zipDirectory(ordered)!;
    expect(reread.parts.map((p) => p.name)).toEqual(directory.parts.map((p) => p.name));
    expect(contents(ordered, reread)).toEqual(contents(data, directory));
    expect(await zipUnpackedSize(ordered, 1e9)).toBe(await zipUnpackedSize(data, 1e9));

    // A whole-file reader and the streaming reader both read it back.
    const loaded = new ExcelJS.Workbook();
    await loaded.xlsx.load(ordered as unknown as ArrayBuffer);
    expect(loaded.worksheets.map((w) => w.name)).toEqual(['订单', '说明']);
    expect(loaded.getWorksheet('订单')!.getRow(2).values).toEqual([undefined, 'wx_1', 12.5]);
    const streamed: unknown[][] = [];
    for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([ordered]), {
      worksheets: 'emit',
      sharedStrings: 'cache',
    })) {
      for await (const row of sheet) streamed.push((row.values as unknown[]).slice(1));
    }
    expect(streamed).toEqual([['目标微信号', '金额'], ['wx_1', 12.5], ['read me']]);
  });

  it('keeps each part’s data descriptor with it when the sizes follow the data', async () => {
    const data = await streamedZip({ 'xl/worksheets/sheet1.xml': '<sheet/>', 'b.txt': 'b'.repeat(5000), 'xl/workbook.xml': '<workbook/>' });
    expect(data.readUInt16LE(6) & 0x8).toBe(0x8);
    const directory = zipDirectory(data)!;
    const ordered = withPartsFirst(data, directory, isDependency);
    expect(storedOrder(ordered)).toEqual(['xl/workbook.xml', 'xl/worksheets/sheet1.xml', 'b.txt']);
    const reread = zipDirectory(ordered)!;
    expect(contents(ordered, reread)).toEqual(
      new Map([
        ['xl/worksheets/sheet1.xml', '<sheet/>'],
        ['xl/workbook.xml', '<workbook/>'],
        ['b.txt', 'b'.repeat(5000)],
      ]),
    );
    expect(await zipUnpackedSize(ordered, 1e9)).toBe(8 + 11 + 5000);
  });

  it('answers null for what is not a zip, a truncated zip and a part that will not inflate; stops counting past the limit', async () => {
    expect(zipDirectory(Buffer.from('not a zip at all, just text'))).toBeNull();
    const data = await twoSheetWorkbook();
    expect(zipDirectory(data.subarray(0, data.length - 30))).toBeNull();
    const directory = zipDirectory(data)!;
    const deflated = directory.parts.find((p) => p.method === 8 && p.compressedSize > 16)!;
    const broken = Buffer.from(data);
    broken.fill(0xff, deflated.dataOffset, deflated.dataOffset + 8);
    expect(await zipUnpackedSize(broken, 1e9)).toBeNull();
    const total = (await zipUnpackedSize(data, 1e9))!;
    expect(await zipUnpackedSize(data, 100)).toBeGreaterThan(100);
    expect(await zipUnpackedSize(data, 100)).toBeLessThan(total);
  });
});
