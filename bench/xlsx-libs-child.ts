// One measurement of bench/xlsx-libs.bench.ts in a process of its own, so each library's peak
// resident memory is its own: `node --import tsx bench/xlsx-libs-child.ts <task> <lib> <file> [rows]`.
// Prints one line of JSON (Measured). Tasks:
// - read: the order import's reading of an xlsx (the unpacked-size check, then the library), every
//   row's cells normalised and hashed so the bench can check the libraries read the same thing.
//   exceljs is the import's own reader (read.ts readSheet); like the import, it stops at row
//   IMPORT_MAX_ROWS + 1, where the import refuses the file (a streaming reader can; the others
//   parse the whole sheet before the first row is seen).
// - export: an order export of `rows` rows written as a stream into a sink that counts the bytes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PassThrough, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as SheetJS from '@e965/xlsx';
import type ExcelJSModule from 'exceljs';
import type * as ReadExcelFile from 'read-excel-file/node';
import type WriteExcelFile from 'write-excel-file/node';
import type { SheetData } from 'write-excel-file/node';
import type * as XlsxStream from '../apps/server/src/lib/xlsx-stream.ts';
import type * as ReadModule from '../apps/server/src/modules/orders/import/read.ts';

export type Lib = 'exceljs' | 'exceljs-plain' | 'ours' | 'read-excel-file' | 'write-excel-file' | 'sheetjs';

export interface Measured {
  /** Importing the library (its first use in a process). */
  loadMs: number;
  /** The task, after the load: to the last row read, or to the last byte written. */
  ms: number;
  /** CPU time of the task (user + system), ms. */
  cpuMs: number;
  /** Written: to the first byte. */
  firstByteMs?: number;
  rssAfterLoadMb: number;
  /** Peak resident memory of the whole process. */
  peakRssMb: number;
  rows: number;
  /** Read: a hash of every row's normalised cells; export: the file's size in bytes. */
  digest?: string;
  bytes?: number;
  /** Read: date cells off a whole second (03:05 read as 03:04:59.999). */
  offDates?: number;
  /** Read: text cells holding U+FFFD (a multi-byte character broken in two). */
  replaced?: number;
  /** A library that threw: its message. */
  error?: string;
}

const require = createRequire(import.meta.url);
const [task, lib, file, rowsArg] = process.argv.slice(2) as ['read' | 'export', Lib, string, string | undefined];

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const MAX_UNPACKED = 200 * 1024 * 1024; // read.ts XLSX_MAX_UNPACKED_BYTES
const COLUMNS = 13; // ORDER_SHEET_COLUMNS

/** A cell as the import compares it: text, a number's text, a date's instant, or ''. */
function normal(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return new Date(Math.round(cell.getTime() / 1000) * 1000).toISOString();
  return String(cell);
}

/** Date cells whose instant is not a whole second (a serial day number converted without rounding). */
let offDates = 0;
/** Text cells with U+FFFD, a character the reader broke (the files hold none). */
let replaced = 0;

async function loadLib(): Promise<unknown> {
  switch (lib) {
    case 'exceljs':
      if (task === 'read') {
        // The import's reader (loaded before the clock, as for every library), and exceljs
        // itself, which it loads at its first use.
        const reader = await import('../apps/server/src/modules/orders/import/read.ts');
        await reader.loadExcel();
        return reader;
      }
      return (await import('exceljs')).default;
    case 'exceljs-plain':
      return (await import('exceljs')).default;
    case 'ours':
      return import('../apps/server/src/lib/xlsx-stream.ts');
    case 'read-excel-file':
      return import('read-excel-file/node');
    case 'write-excel-file':
      return (await import('write-excel-file/node')).default;
    case 'sheetjs':
      return require('@e965/xlsx') as unknown;
  }
}

async function read(mod: unknown, data: Buffer): Promise<{ rows: number; digest: string; offDates: number; replaced: number }> {
  const hash = createHash('sha1');
  let rows = 0;
  const add = (cells: readonly unknown[]) => {
    rows++;
    for (let c = 0; c < COLUMNS; c++) {
      const cell = cells[c];
      if (cell instanceof Date && cell.getTime() % 1000 !== 0) offDates++;
      if (typeof cell === 'string' && cell.includes('\uFFFD')) replaced++;
    }
    for (let c = 0; c < COLUMNS; c++) hash.update(`${normal(cells[c])}\u0001`);
    hash.update('\u0002');
  };
  if (lib === 'exceljs') {
    const { readSheet, IMPORT_MAX_ROWS } = mod as typeof ReadModule;
    const sheet = await readSheet(data);
    add(sheet.headers);
    for await (const row of sheet.rows) {
      add(row.cells);
      if (rows > IMPORT_MAX_ROWS + 1) break; // where the import answers "too many rows"
    }
    return { rows, digest: hash.digest('hex'), offDates, replaced };
  }
  const { zipUnpackedSize } = await import('../apps/server/src/lib/zip-parts.ts');
  const unpacked = await zipUnpackedSize(data, MAX_UNPACKED);
  if (unpacked === null || unpacked > MAX_UNPACKED) throw new Error('refused by the size check');
  if (lib === 'exceljs-plain') {
    // The import's reader as it was before decision 0116: the parts reordered, the streaming
    // reader as exceljs ships it.
    const { zipDirectory, withPartsFirst } = await import('../apps/server/src/lib/zip-parts.ts');
    const first = new Set(['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml']);
    const ordered = withPartsFirst(data, zipDirectory(data)!, (part) => first.has(part));
    const ExcelJS = mod as typeof ExcelJSModule;
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([ordered]), {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    });
    for await (const sheet of reader) {
      for await (const row of sheet) add((row.values as unknown[]).slice(1));
      break;
    }
  } else if (lib === 'read-excel-file') {
    const { readSheet } = mod as typeof ReadExcelFile;
    for (const row of await readSheet(data)) add(row);
  } else {
    const XLSX = mod as typeof SheetJS;
    const book = XLSX.read(data, { type: 'buffer', dense: true, cellDates: true, sheets: 0 });
    const sheet = book.Sheets[book.SheetNames[0]!]!;
    for (const row of XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: true })) add(row);
  }
  return { rows, digest: hash.digest('hex'), offDates, replaced };
}

// ── the export: ~the order export's 19 columns (orders.export.ts exportCells) ──

const EXPORT_WIDTHS = [18, 18, 14, 12, 20, 20, 10, 14, 18, 12, 12, 10, 12, 30, 30, 30, 30, 20, 20];
const DATE_COLUMNS = new Set([5, 17, 18]);
const MONEY_COLUMN = 10;
const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const MONEY_FORMAT = '"¥"#,##0.00';

function exportRow(i: number): (string | number | Date | null)[] {
  const at = Date.UTC(2026, 0, 2, 3, 4) + i * 61_000;
  const mac = [i >> 16, i >> 8, i, 0xaa, 0xbb, 0xcc].map((b) => (b & 255).toString(16).padStart(2, '0').toUpperCase()).join('-');
  return [
    `A${(100000000 + i).toString(36).toUpperCase()}`,
    `wxid_export${i}`,
    `玩家${i % 5000}`,
    '和平精英',
    mac,
    new Date(at),
    i % 10 === 0 ? '作弊' : '正常',
    `shop${i % 2000}`,
    `店铺${i % 3000}`,
    `inspector${i % 40}`,
    [10, 30, 5, 15][i % 4]!,
    i % 3 === 0 ? '公开' : '私密',
    i % 12 === 0 ? '是' : '否',
    i % 10 === 0 ? '复检：设备与上次检测一致' : null,
    i % 4 === 0 ? `https://cp.example.com/api/files/cert/${i}.jpg?sig=${(i * 2654435761) >>> 0}` : null,
    null,
    null,
    new Date(at + 3_600_000),
    new Date(at + 7_200_000),
  ];
}

const HEADER = Array.from({ length: EXPORT_WIDTHS.length }, (_, c) => `列${c + 1}`);
/** Rows per page, as the export reads the database (orders.export.ts). */
const PAGE = 500;

async function exportTo(mod: unknown, rows: number, sink: Writable): Promise<void> {
  if (lib === 'ours') {
    const { XlsxStreamWriter } = mod as typeof XlsxStream;
    const writer = new XlsxStreamWriter(
      '订单',
      EXPORT_WIDTHS.map((width, c) => ({
        width,
        format: DATE_COLUMNS.has(c) ? ('datetime' as const) : c === MONEY_COLUMN ? ('cny' as const) : undefined,
      })),
    );
    const done = pipeline(writer.stream, sink);
    writer.writeRow(HEADER, true);
    for (let i = 0; i < rows; i++) {
      writer.writeRow(exportRow(i));
      if ((i + 1) % PAGE === 0) await writer.drained();
    }
    writer.end();
    return done;
  }
  if (lib === 'exceljs') {
    const ExcelJS = mod as typeof ExcelJSModule;
    const out = new PassThrough();
    const done = pipeline(out, sink);
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = book.addWorksheet('订单', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = EXPORT_WIDTHS.map((width, c) => ({
      width,
      style: DATE_COLUMNS.has(c) ? { numFmt: DATE_FORMAT } : c === MONEY_COLUMN ? { numFmt: MONEY_FORMAT } : {},
    }));
    const header = sheet.addRow(HEADER);
    header.font = { bold: true };
    header.commit();
    for (let i = 0; i < rows; i++) {
      sheet.addRow(exportRow(i)).commit();
      if ((i + 1) % PAGE === 0 && out.writableNeedDrain) await new Promise((r) => out.once('drain', r));
    }
    sheet.commit();
    await book.commit();
    return done;
  }
  if (lib === 'write-excel-file') {
    // No streaming of rows: the whole sheet is handed over as one array, then zipped as a stream.
    const writeExcelFile = mod as typeof WriteExcelFile;
    const data: unknown[][] = [HEADER.map((value) => ({ value, fontWeight: 'bold' }))];
    for (let i = 0; i < rows; i++)
      data.push(
        exportRow(i).map((value, c) =>
          value === null
            ? null
            : value instanceof Date
              ? { value, type: Date, format: DATE_FORMAT }
              : c === MONEY_COLUMN
                ? { value, type: Number, format: MONEY_FORMAT }
                : { value },
        ),
      );
    await writeExcelFile(data as SheetData, {
      sheet: '订单',
      columns: EXPORT_WIDTHS.map((width) => ({ width })),
      stickyRowsCount: 1,
    }).toStream(sink);
    return;
  }
  // SheetJS: the whole workbook is built, then written to one buffer (no xlsx streaming writer).
  const XLSX = mod as typeof SheetJS;
  const aoa: unknown[][] = [HEADER];
  for (let i = 0; i < rows; i++) aoa.push(exportRow(i));
  const sheet = XLSX.utils.aoa_to_sheet(aoa, { cellDates: true, dateNF: DATE_FORMAT, dense: true });
  sheet['!cols'] = EXPORT_WIDTHS.map((wch) => ({ wch }));
  const dense = (sheet as unknown as { '!data': ({ z?: string } | undefined)[][] })['!data'];
  for (let r = 1; r < dense.length; r++) {
    const cell = dense[r]?.[MONEY_COLUMN];
    if (cell) cell.z = MONEY_FORMAT;
  }
  const book = XLSX.utils.book_new(sheet, '订单');
  const buffer = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
  const out = new PassThrough();
  const done = pipeline(out, sink);
  out.end(buffer);
  return done;
}

async function main(): Promise<Measured> {
  // The product's reading code, common to every library, loaded before the clock starts.
  if (task === 'read')
    await Promise.all([import('../apps/server/src/modules/orders/import/read.ts'), import('../apps/server/src/lib/zip-parts.ts')]);
  const l0 = performance.now();
  const mod = await loadLib();
  const loadMs = performance.now() - l0;
  const rssAfterLoadMb = mb(process.memoryUsage().rss);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const finish = (rest: Partial<Measured> & { rows: number }): Measured => {
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    return {
      loadMs,
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      rssAfterLoadMb,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      ...rest,
    };
  };
  try {
    if (task === 'read') return finish(await read(mod, readFileSync(file)));
    const rows = Number(rowsArg);
    let bytes = 0;
    let firstByteMs: number | undefined;
    const sink = new Writable({
      write(chunk: Buffer, _enc, callback) {
        firstByteMs ??= performance.now() - t0;
        bytes += chunk.length;
        callback();
      },
    });
    await exportTo(mod, rows, sink);
    return finish({ rows, bytes, firstByteMs });
  } catch (error) {
    return finish({ rows: 0, error: error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 120) : String(error) });
  }
}

process.stdout.write(`${JSON.stringify(await main())}\n`);
