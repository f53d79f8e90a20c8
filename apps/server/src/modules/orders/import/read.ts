/**
 * Step 1 of an order import, reading: the uploaded bytes as a sheet, an xlsx (a zip, exceljs) or
 * a UTF-8 csv (csv-parse). The header row is read at once and the rows arrive as the parser
 * reaches them, so the import checks and writes the first rows while the parser is still on the
 * later ones.
 *
 * Limits: 50,000 orders per file, 200 MB of unpacked xlsx content (20 MB per file: upload.ts).
 */
import { isUtf8 } from 'node:buffer';
import { pipeline, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CsvError, parse } from 'csv-parse';
import type ExcelJS from 'exceljs';
import { AppError } from '../../../lib/errors.ts';
import { withPartsFirst, zipDirectory, zipUnpackedSize } from '../../../lib/zip-parts.ts';
import { formatWallClock } from '../files/orders.sheet.ts';

export const IMPORT_MAX_ROWS = 50_000;
/** Unpacked size of an xlsx's parts: refuses a "zip bomb" before exceljs inflates it in memory. */
const XLSX_MAX_UNPACKED_BYTES = 200 * 1024 * 1024;
/** What exceljs's streaming reader needs before it can parse a worksheet as it arrives. */
const SHEET_DEPENDENCIES: ReadonlySet<string> = new Set([
  'xl/_rels/workbook.xml.rels',
  'xl/workbook.xml',
  'xl/sharedStrings.xml',
  'xl/styles.xml',
]);

/**
 * exceljs, loaded at the first import or template rather than at start-up: it takes about half
 * a second and 25 MB to load, which every server paid whether or not anyone imported.
 */
export const loadExcel = async (): Promise<typeof ExcelJS> => (await import('exceljs')).default;

/** A cell as read: text, a number, a flag, or a date (a sheet's date is wall-clock time). */
export type Cell = string | number | boolean | Date | null;

export interface SheetRow {
  /** As the spreadsheet numbers it: the header is row 1. */
  row: number;
  cells: Cell[];
}

/**
 * A sheet being read: the header row at once, the rows as they are parsed (the import checks
 * and writes the first rows while the parser is still on the later ones).
 */
export interface Sheet {
  headers: string[];
  rows: AsyncIterable<SheetRow>;
}

export const isBlank = (cell: Cell) => cell === null || (typeof cell === 'string' && cell.trim() === '');

/** A cell as text (the report's values, and every text field). */
export function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : formatWallClock(cell);
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  return String(cell);
}

/** Text files carry no NUL and few control characters; binaries (xls, pdf, images) do. */
function looksBinary(data: Buffer): boolean {
  const end = Math.min(data.length, 65_536);
  for (let i = 0; i < end; i++) {
    // In UTF-8 every byte of a multi-byte character is 0x80 or above: a byte below 0x20 is a control character.
    const byte = data[i]!;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) return true;
  }
  return false;
}

/** An xlsx (a zip: PK\x03\x04) or a UTF-8 csv, with or without a byte order mark. */
export async function readSheet(data: Buffer): Promise<Sheet> {
  if (data.length === 0) throw new AppError(400, 'orderImport.empty');
  if (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50) return readXlsx(data);
  // UTF-8 only: a GBK or UTF-16 file (Excel's "CSV" and "Unicode text") is refused, never misread.
  if (!isUtf8(data) || looksBinary(data)) throw new AppError(400, 'orderImport.notSpreadsheet');
  return readCsv(data);
}

/** What csv-parse hands over at a time: it parses a slice while the import checks the rows before it. */
const CSV_SLICE_BYTES = 64 * 1024;

/**
 * RFC 4180 records read by csv-parse as the import asks for them: comma separated, fields
 * optionally in double quotes (a quote inside is doubled, line breaks allowed), lines ending in
 * CRLF, LF or CR (each line may end its own way), a UTF-8 byte order mark dropped. Rows of
 * different lengths are kept as they are, and a stray quote inside a field is kept as text, as
 * Excel reads them. More than IMPORT_MAX_ROWS records after the header, or a quoted field that
 * never closes, ends the reading with an error where the parser meets it.
 */
async function readCsv(data: Buffer): Promise<Sheet> {
  const parser = parse({
    bom: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
  });
  // In slices, so the parser stops at its buffer's high-water mark and goes on as rows are taken.
  const slices = Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += CSV_SLICE_BYTES) yield data.subarray(at, at + CSV_SLICE_BYTES);
    })(),
    { objectMode: false },
  );
  pipeline(slices, parser, () => undefined);
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  // The number of records read so far: the header is record 1, as a spreadsheet numbers rows.
  let count = 0;
  const next = async (): Promise<string[] | null> => {
    let result: IteratorResult<string[]>;
    try {
      result = await records.next();
    } catch (error) {
      // The row the open quote is on: the records the parser completed before it, plus one (it
      // counts those the import has not taken yet too).
      if (error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED')
        throw new AppError(400, 'orderImport.csvQuote', { row: Number(error.records ?? count) + 1 });
      throw new AppError(400, 'orderImport.notSpreadsheet');
    }
    if (result.done === true) return null;
    if (++count > IMPORT_MAX_ROWS + 1) throw new AppError(400, 'orderImport.tooManyRows', { max: IMPORT_MAX_ROWS });
    return result.value;
  };
  const stop = () => parser.destroy();

  let header: string[] | null;
  try {
    header = await next();
  } catch (error) {
    stop();
    throw error;
  }
  if (header === null || header.every((h) => h.trim() === '')) {
    stop();
    throw new AppError(400, 'orderImport.empty');
  }
  return {
    headers: header,
    rows: (async function* () {
      try {
        for (let cells = await next(); cells !== null; cells = await next()) yield { row: count, cells };
      } finally {
        stop();
      }
    })(),
  };
}

/** An exceljs cell value as a Cell: rich text joined, a formula's result, a hyperlink's text. */
function toCell(value: ExcelJS.CellValue | undefined): Cell {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return toCell(value.result as ExcelJS.CellValue | undefined);
  if ('hyperlink' in value) return toCell(value.text as ExcelJS.CellValue);
  if ('error' in value) return String(value.error);
  return null;
}

/** The two steps of exceljs 4.4's streaming reader that meet a part's bytes (lib/stream/xlsx/workbook-reader.js). */
interface ReaderSteps {
  _parseSharedStrings(entry: NodeJS.ReadableStream): AsyncGenerator<unknown>;
  _parseWorksheet(iterator: AsyncIterable<Buffer | string>, sheetNo: string): Generator<unknown>;
}

/**
 * exceljs's streaming reader, its text decoded across chunks. It decodes each chunk of a part on
 * its own (lib/utils/parse-sax.js), so a character whose UTF-8 bytes fall across two chunks (16 KB
 * of inflated XML each) became U+FFFD: Chinese text in shared strings (as Excel and exceljs store
 * it) and in inline strings (as our export writes it) read as "玩���502", a few cells in every
 * thousand rows (exceljs issues 2063 and 2084, open; decision 0116). Here the shared strings are
 * read by their stream as UTF-8 text, and each worksheet's chunks pass a StringDecoder, which holds
 * a split character back until its last byte arrives.
 */
function wholeCharacters(reader: ExcelJS.stream.xlsx.WorkbookReader): ExcelJS.stream.xlsx.WorkbookReader {
  const steps = reader as unknown as ReaderSteps;
  if (typeof steps._parseSharedStrings !== 'function' || typeof steps._parseWorksheet !== 'function')
    throw new Error('exceljs: its streaming reader has changed; see decision 0116');
  const sharedStrings = steps._parseSharedStrings.bind(reader);
  const worksheet = steps._parseWorksheet.bind(reader);
  steps._parseSharedStrings = (entry) => sharedStrings(entry.setEncoding('utf8'));
  steps._parseWorksheet = (iterator, sheetNo) => worksheet(utf8Text(iterator), sheetNo);
  return reader;
}

async function* utf8Text(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (text !== '') yield text;
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

/**
 * The first worksheet of an xlsx, read with exceljs's streaming reader (a SAX parse, faster
 * and lighter than loading the whole workbook model). A date cell comes as a Date whose UTC
 * fields are the wall-clock time; a date whose style could not be applied, as its serial number.
 */
async function readXlsx(data: Buffer): Promise<Sheet> {
  const directory = zipDirectory(data);
  const unpacked = directory === null ? null : await zipUnpackedSize(data, XLSX_MAX_UNPACKED_BYTES);
  if (directory === null || unpacked === null) throw new AppError(400, 'orderImport.badWorkbook');
  if (unpacked > XLSX_MAX_UNPACKED_BYTES)
    throw new AppError(413, 'orderImport.tooLargeUnpacked', { max: XLSX_MAX_UNPACKED_BYTES / 1024 / 1024 });
  // exceljs's streaming reader meets the parts in stored order. exceljs (our template) and
  // Excel store the worksheets before the shared strings (exceljs also before workbook.xml);
  // the reader then spools each sheet to a temporary file to parse later, and at times fails
  // (exceljs issue 3064: the workbook model missing when a sheet is parsed). With the parts the
  // sheets depend on moved to the front, it parses the sheets straight from memory.
  const ordered = withPartsFirst(data, directory, (name) => SHEET_DEPENDENCIES.has(name));
  const Excel = await loadExcel();
  const reader = wholeCharacters(
    new Excel.stream.xlsx.WorkbookReader(Readable.from([ordered]), {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    }),
  );
  const asImportError = (error: unknown) => (error instanceof AppError ? error : new AppError(400, 'orderImport.badWorkbook'));
  const valuesOf = (row: ExcelJS.Row) => (Array.isArray(row.values) ? row.values : []) as (ExcelJS.CellValue | undefined)[];
  const sheets = reader[Symbol.asyncIterator]();
  let firstSheet: AsyncIterator<ExcelJS.Row>;
  let headerRow: ExcelJS.Row | undefined;
  try {
    const sheet = await sheets.next();
    if (sheet.done === true) throw new AppError(400, 'orderImport.empty');
    firstSheet = (sheet.value as AsyncIterable<ExcelJS.Row>)[Symbol.asyncIterator]();
    const head = await firstSheet.next();
    headerRow = head.done === true ? undefined : head.value;
  } catch (error) {
    throw asImportError(error);
  }
  if (headerRow === undefined || headerRow.number !== 1) throw new AppError(400, 'orderImport.empty');
  const headers = valuesOf(headerRow)
    .slice(1)
    .map((v) => cellText(toCell(v)));
  if (headers.every((h) => h.trim() === '')) throw new AppError(400, 'orderImport.empty');

  async function* rows(): AsyncGenerator<SheetRow> {
    try {
      for (let next = await firstSheet.next(); next.done !== true; next = await firstSheet.next()) {
        const values = valuesOf(next.value);
        const cells: Cell[] = [];
        for (let c = 1; c <= headers.length; c++) cells.push(toCell(values[c]));
        yield { row: next.value.number, cells };
      }
      // later sheets (the template's instructions) are read past
      for (let sheet = await sheets.next(); sheet.done !== true; sheet = await sheets.next()) {
        for await (const _row of sheet.value as AsyncIterable<ExcelJS.Row>) void _row;
      }
    } catch (error) {
      throw asImportError(error);
    }
  }
  return { headers, rows: rows() };
}
