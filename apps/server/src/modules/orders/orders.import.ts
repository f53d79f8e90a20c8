/**
 * Order import (PRODUCT.md "Orders"): an xlsx or csv file, one order per row under a header
 * row in Chinese or English. Every row goes through the same checks as a created order
 * (orders.service.ts `checkOrder`); the answer lists every rejected row with all its reasons.
 * All or nothing unless the caller keeps the valid rows.
 *
 * Limits: 20 MB per file, 50,000 orders per file, 200 MB of unpacked xlsx content.
 * Times: see orders.sheet.ts (Beijing time unless the text names a zone).
 */
import { Readable } from 'node:stream';
import { ORDER_SHEET_COLUMNS, ORDER_TEXT_MAX, type ImportRejectedRow, type OrderImportResult, type OrderSheetColumn } from '@clearplay/contract';
import { Busboy } from '@fastify/busboy';
import type ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { dialectOf, lowerAsDb, writeTransaction } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import { AppError } from '../../lib/errors.ts';
import { t, type Locale, type MessageKey, type MessageParams } from '../../lib/messages.ts';
import { withPartsFirst, zipDirectory, zipUnpackedSize } from '../../lib/zip-parts.ts';
import { nowMs } from '../../lib/time.ts';
import type { Operator } from '../../http/route-context.ts';
import * as repo from './orders.repository.ts';
import { checkOrder, insertFresh, recordInserted, type CheckContext, type InsertedOrder, type OrderInput, type OrderValues } from './orders.service.ts';
import {
  REQUIRED_COLUMNS,
  SHEET_ZONE_OFFSET_MS,
  columnOfHeader,
  formatWallClock,
  headerOf,
  loadImportVocabulary,
  type CodedField,
  type ImportVocabulary,
  type SheetColumn,
} from './orders.sheet.ts';

export const IMPORT_MAX_MB = 20;
export const IMPORT_MAX_BYTES = IMPORT_MAX_MB * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;
/** Unpacked size of an xlsx's parts: refuses a "zip bomb" before exceljs inflates it in memory. */
const XLSX_MAX_UNPACKED_BYTES = 200 * 1024 * 1024;
/** What exceljs's streaming reader needs before it can parse a worksheet as it arrives. */
const SHEET_DEPENDENCIES: ReadonlySet<string> = new Set(['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml', 'xl/styles.xml']);

/**
 * exceljs, loaded at the first import or template rather than at start-up: it takes about half
 * a second and 25 MB to load, which every server paid whether or not anyone imported.
 */
const loadExcel = async (): Promise<typeof ExcelJS> => (await import('exceljs')).default;

// ── the upload ──

export interface UploadedFile {
  fileName: string;
  data: Buffer;
}

/** The `file` field of a multipart/form-data request, at most IMPORT_MAX_BYTES, in memory. */
export async function readUploadedFile(request: FastifyRequest): Promise<UploadedFile> {
  const contentType = request.headers['content-type'] ?? '';
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) throw new AppError(400, 'orderImport.notMultipart');
  if (Number(request.headers['content-length'] ?? 0) > IMPORT_MAX_BYTES + 64 * 1024) {
    request.raw.resume();
    throw new AppError(413, 'orderImport.tooLarge', { max: IMPORT_MAX_MB });
  }
  let busboy: ReturnType<typeof Busboy>;
  try {
    busboy = Busboy({ headers: { ...request.headers, 'content-type': contentType }, limits: { files: 1, fields: 20, parts: 21, fileSize: IMPORT_MAX_BYTES, fieldSize: 1024 } });
  } catch {
    throw new AppError(400, 'orderImport.badMultipart');
  }
  const file = await new Promise<UploadedFile | null>((resolve, reject) => {
    let found: Promise<UploadedFile> | null = null;
    let failed = false;
    const fail = (error: AppError) => {
      if (failed) return;
      failed = true;
      request.raw.unpipe(busboy);
      request.raw.resume();
      reject(error);
    };
    busboy.on('file', (name, stream, fileName) => {
      if (name !== 'file' || found !== null) {
        stream.resume();
        return;
      }
      found = new Promise<UploadedFile>((done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('limit', () => fail(new AppError(413, 'orderImport.tooLarge', { max: IMPORT_MAX_MB })));
        stream.on('end', () => done({ fileName, data: Buffer.concat(chunks) }));
      });
    });
    busboy.on('error', () => fail(new AppError(400, 'orderImport.badMultipart')));
    busboy.on('finish', () => {
      if (failed) return;
      if (found === null) resolve(null);
      else found.then(resolve, reject);
    });
    request.raw.on('error', () => fail(new AppError(400, 'orderImport.badMultipart')));
    // A client that goes away mid-upload: the body never completes.
    request.raw.on('close', () => {
      if (!request.raw.complete) fail(new AppError(400, 'orderImport.badMultipart'));
    });
    request.raw.pipe(busboy);
  });
  if (file === null) throw new AppError(400, 'orderImport.noFile');
  return file;
}

// ── reading the sheet ──

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

const isBlank = (cell: Cell) => cell === null || (typeof cell === 'string' && cell.trim() === '');

/** A cell as text (the report's values, and every text field). */
export function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : formatWallClock(cell);
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  return String(cell);
}

/** Text files carry no NUL and few control characters; binaries (xls, pdf, images) do. */
function looksBinary(text: string): boolean {
  const end = Math.min(text.length, 65_536);
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) return true;
  }
  return false;
}

/** An xlsx (a zip: PK\x03\x04) or a UTF-8 csv, with or without a byte order mark. */
export async function readSheet(data: Buffer): Promise<Sheet> {
  if (data.length === 0) throw new AppError(400, 'orderImport.empty');
  if (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50) return readXlsx(data);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    throw new AppError(400, 'orderImport.notSpreadsheet');
  }
  if (looksBinary(text)) throw new AppError(400, 'orderImport.notSpreadsheet');
  return fromRecords(parseCsv(text, IMPORT_MAX_ROWS + 1));
}

/**
 * RFC 4180 records: comma separated, fields optionally in double quotes (a quote inside is
 * doubled, line breaks allowed), lines ending in CRLF, LF or CR. Stops with an error past
 * `maxRecords` records.
 */
export function parseCsv(text: string, maxRecords = Number.POSITIVE_INFINITY): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  const n = text.length;
  let quoted = false;
  let fieldStart = true;
  const endRecord = () => {
    record.push(field);
    records.push(record);
    if (records.length > maxRecords) throw new AppError(400, 'orderImport.tooManyRows', { max: IMPORT_MAX_ROWS });
    record = [];
    field = '';
    fieldStart = true;
  };
  while (i < n) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
      i++;
      continue;
    }
    if (c === ',') {
      record.push(field);
      field = '';
      fieldStart = true;
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    field += c;
    fieldStart = false;
    i++;
  }
  if (quoted) throw new AppError(400, 'orderImport.csvQuote', { row: records.length + 1 });
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

function fromRecords(records: string[][]): Sheet {
  const [header, ...rest] = records;
  if (header === undefined || header.every((h) => h.trim() === '')) throw new AppError(400, 'orderImport.empty');
  return {
    headers: header,
    rows: (async function* () {
      for (let i = 0; i < rest.length; i++) yield { row: i + 2, cells: rest[i]! };
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

/**
 * The first worksheet of an xlsx, read with exceljs's streaming reader (a SAX parse, faster
 * and lighter than loading the whole workbook model). A date cell comes as a Date whose UTC
 * fields are the wall-clock time; a date whose style could not be applied, as its serial number.
 */
async function readXlsx(data: Buffer): Promise<Sheet> {
  const directory = zipDirectory(data);
  const unpacked = directory === null ? null : await zipUnpackedSize(data, directory, XLSX_MAX_UNPACKED_BYTES);
  if (directory === null || unpacked === null) throw new AppError(400, 'orderImport.badWorkbook');
  if (unpacked > XLSX_MAX_UNPACKED_BYTES) throw new AppError(413, 'orderImport.tooLargeUnpacked', { max: XLSX_MAX_UNPACKED_BYTES / 1024 / 1024 });
  // exceljs's streaming reader meets the parts in stored order. exceljs (our template) and
  // Excel store the worksheets before the shared strings (exceljs also before workbook.xml);
  // the reader then spools each sheet to a temporary file to parse later, and at times fails
  // (exceljs issue 3064: the workbook model missing when a sheet is parsed). With the parts the
  // sheets depend on moved to the front, it parses the sheets straight from memory.
  const ordered = withPartsFirst(data, directory, (name) => SHEET_DEPENDENCIES.has(name));
  const Excel = await loadExcel();
  const reader = new Excel.stream.xlsx.WorkbookReader(Readable.from([ordered]), { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
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

// ── reading a row's cells ──

/** A sheet time as an instant: a date cell or zoneless text is Beijing time; an Excel serial number too. */
export function parseSheetTime(cell: Cell): number | null {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? null : cell.getTime() - SHEET_ZONE_OFFSET_MS;
  if (typeof cell === 'number') {
    // A date typed into a cell without a date format: days since 1899-12-30.
    if (!(cell > 1 && cell < 2_958_466)) return null;
    return Math.round((cell - 25_569) * 86_400) * 1000 - SHEET_ZONE_OFFSET_MS;
  }
  if (typeof cell !== 'string') return null;
  const text = cell.trim();
  const zoned = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)\s*(Z|[+-]\d{2}:\d{2})$/i.exec(text);
  if (zoned) {
    const ms = Date.parse(`${zoned[1]}T${zoned[2]}${zoned[3]!.toUpperCase()}`);
    return Number.isNaN(ms) ? null : ms;
  }
  // 2026-01-02 03:04, 2026/1/2 3:04:05, 2026.1.2, 2026年1月2日 3时4分 …
  const normal = text
    .replace(/[年月]/g, '-')
    .replace(/日/g, ' ')
    .replace(/[时分：]/g, ':')
    .replace(/秒/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/:$/, '');
  const wall = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?)?$/.exec(normal);
  if (!wall) return null;
  const [year, month, day, hour, minute, second] = wall.slice(1, 7).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  const millis = wall[7] === undefined ? 0 : Number(wall[7].slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const wallMs = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  if (new Date(wallMs).getUTCDate() !== day) return null; // 2026-02-30
  return wallMs - SHEET_ZONE_OFFSET_MS;
}

/** An amount in CNY (12.5, "¥12.50", "1,200", "12元") as fen; undefined when empty, null when not an amount. */
export function parseAmount(cell: Cell): number | undefined | null {
  if (isBlank(cell)) return undefined;
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell) || cell < 0) return null;
    const fen = Math.round(cell * 100);
    return Math.abs(fen - cell * 100) < 1e-6 ? fen : null;
  }
  if (typeof cell !== 'string') return null;
  let text = cell
    .trim()
    .replace(/^(¥|￥|CNY|RMB)\s*/i, '')
    .replace(/\s*元$/, '');
  // Thousands separators only where they group by three (12,5 is not 125).
  if (/^\d{1,3}(?:[,，]\d{3})+(?:\.\d*)?$/.test(text)) text = text.replace(/[,，]/g, '');
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** A MAC as text; one typed as a number (digits only) lost its leading zeros to the spreadsheet. */
const macText = (cell: Cell): string => (typeof cell === 'number' && Number.isInteger(cell) && cell >= 0 && cell < 1e12 ? String(cell).padStart(12, '0') : cellText(cell).trim());

/** A coded cell (label, value or English word) as its value; undefined when empty, null when unknown. */
const parseCoded = (cell: Cell, words: ReadonlyMap<string, number>): number | undefined | null => {
  if (isBlank(cell)) return undefined;
  return words.get(cellText(cell).trim().toLowerCase()) ?? null;
};

// ── people named by the sheet ──

type Person = { id: number } | { ambiguous: number } | null;

/**
 * Users named by username (case-insensitive) or nickname (exact). A username wins over a
 * nickname; a nickname several users share is ambiguous.
 */
async function findPeople(db: Db, names: ReadonlySet<string>): Promise<Map<string, Person>> {
  const list = [...names];
  const rows: { id: number; username: string; nickname: string }[] = [];
  for (let i = 0; i < list.length; i += 200) {
    const chunk = list.slice(i, i + 200);
    const lowered = [...new Set(chunk.map((n) => lowerAsDb(db, n)))];
    rows.push(...(await repo.findUsersByName(db, lowered, chunk)));
  }
  // Looked up by map, not by scanning every row per name (2,000 shops named in one sheet).
  const byLowerUsername = new Map<string, typeof rows>();
  const byNicknameText = new Map<string, Map<number, (typeof rows)[number]>>();
  for (const r of rows) {
    const lower = r.username.toLowerCase();
    const same = byLowerUsername.get(lower) ?? [];
    if (!same.some((o) => o.id === r.id)) same.push(r);
    byLowerUsername.set(lower, same);
    const nick = r.nickname.trim();
    const withNick = byNicknameText.get(nick) ?? new Map();
    withNick.set(r.id, r);
    byNicknameText.set(nick, withNick);
  }
  const found = new Map<string, Person>();
  for (const name of list) {
    const byUsername = byLowerUsername.get(name.toLowerCase()) ?? [];
    const exact = byUsername.find((r) => r.username === name);
    if (byUsername.length === 1 || exact !== undefined) {
      found.set(name, { id: Number((exact ?? byUsername[0])!.id) });
      continue;
    }
    if (byUsername.length > 1) {
      found.set(name, { ambiguous: byUsername.length });
      continue;
    }
    const byNickname = [...(byNicknameText.get(name)?.values() ?? [])];
    found.set(name, byNickname.length === 1 ? { id: Number(byNickname[0]!.id) } : byNickname.length > 1 ? { ambiguous: byNickname.length } : null);
  }
  return found;
}

// ── the import ──

interface Problem {
  column: SheetColumn;
  key: MessageKey;
  params?: MessageParams;
}

/** checkOrder's field → the sheet column that holds it. */
const COLUMN_OF_FIELD: Record<string, SheetColumn> = { userId: 'userName', inspectorId: 'inspectorName' };
const COLUMN_ORDER: readonly string[] = ORDER_SHEET_COLUMNS;

interface ParsedRow {
  row: number;
  values: Record<string, string>;
  input: OrderInput;
  problems: Problem[];
}

/** The header → column map of a sheet; a duplicate or a missing required column stops the import. */
function mapHeaders(headers: readonly string[], locale: Locale): Map<OrderSheetColumn, number> {
  const at = new Map<OrderSheetColumn, number>();
  headers.forEach((text, index) => {
    const column = columnOfHeader(text);
    if (column === undefined) return;
    if (at.has(column)) throw new AppError(400, 'orderImport.duplicateHeader', { header: text.trim() });
    at.set(column, index);
  });
  const missing = REQUIRED_COLUMNS.filter((c) => !at.has(c));
  if (missing.length > 0) {
    throw new AppError(400, 'orderImport.missingColumns', { columns: missing.map((c) => headerOf(locale, c)).join(locale === 'zh-CN' ? '、' : ', ') });
  }
  return at;
}

function parseRow(sheetRow: SheetRow, headers: readonly string[], at: ReadonlyMap<OrderSheetColumn, number>, vocabulary: ImportVocabulary, people: ReadonlyMap<string, Person>, op: Operator): ParsedRow {
  const problems: Problem[] = [];
  const cell = (column: OrderSheetColumn): Cell => {
    const index = at.get(column);
    return index === undefined ? null : (sheetRow.cells[index] ?? null);
  };
  const text = (column: OrderSheetColumn, max?: number): string => {
    const value = cellText(cell(column)).trim();
    if (max !== undefined && value.length > max) problems.push({ column, key: 'order.tooLong', params: { max } });
    return value;
  };
  const coded = (column: CodedField): number | undefined => {
    const value = parseCoded(cell(column), vocabulary.words[column]);
    if (value === null) problems.push({ column, key: column === 'result' ? 'orderImport.result' : 'orderImport.flag', params: { value: cellText(cell(column)).trim().slice(0, 40), allowed: vocabulary.allowed[column] } });
    return value ?? undefined;
  };
  const person = (column: 'userName' | 'inspectorName', fallback?: number): number => {
    const name = text(column);
    if (name === '') {
      if (fallback !== undefined) return fallback;
      problems.push({ column, key: 'order.required' });
      return -1;
    }
    const found = people.get(name) ?? null;
    if (found === null) problems.push({ column, key: 'orderImport.userNotFound', params: { name: name.slice(0, 64) } });
    else if ('ambiguous' in found) problems.push({ column, key: 'orderImport.userAmbiguous', params: { name: name.slice(0, 64), count: found.ambiguous } });
    return found !== null && 'id' in found ? found.id : -1;
  };

  const installationCell = cell('installationTime');
  let installationAt = Number.NaN;
  if (isBlank(installationCell)) problems.push({ column: 'installationTime', key: 'order.required' });
  else {
    const parsed = parseSheetTime(installationCell);
    if (parsed === null) problems.push({ column: 'installationTime', key: 'orderImport.time', params: { value: cellText(installationCell).trim().slice(0, 40) } });
    else installationAt = parsed;
  }
  const result = coded('result');
  if (result === undefined && isBlank(cell('result'))) problems.push({ column: 'result', key: 'order.required' });
  const amount = parseAmount(cell('amount'));
  if (amount === null) problems.push({ column: 'amount', key: 'orderImport.amount', params: { value: cellText(cell('amount')).trim().slice(0, 40) } });
  const gameText = text('gameName', ORDER_TEXT_MAX.gameName);

  const input: OrderInput = {
    objWechat: text('objWechat', ORDER_TEXT_MAX.objWechat),
    objWechatName: text('objWechatName', ORDER_TEXT_MAX.objWechatName),
    gameName: vocabulary.games.get(gameText) ?? gameText,
    mac: macText(cell('mac')),
    installationAt,
    result: result ?? Number.NaN,
    userId: person('userName'),
    objClientName: text('objClientName', ORDER_TEXT_MAX.objClientName),
    inspectorId: person('inspectorName', op.id),
    amount: amount ?? undefined,
    ifPublic: coded('ifPublic'),
    ifChangedMac: coded('ifChangedMac'),
    description: text('description'),
  };
  const values: Record<string, string> = {};
  headers.forEach((header, index) => {
    const name = header.trim();
    if (name !== '' && !(name in values)) values[name] = cellText(sheetRow.cells[index] ?? null);
  });
  return { row: sheetRow.row, values, input, problems };
}

/** A column's place in the sheet's order; columns the sheet does not know come last. */
const columnRank = (column: string) => (COLUMN_ORDER.includes(column) ? COLUMN_ORDER.indexOf(column) : COLUMN_ORDER.length);

/** Rows checked and written together; the sheet parser reads on while a batch is written. */
const IMPORT_BATCH = 1000;

/** Ends the import's transaction without writing (all or nothing, and a row was rejected). */
class RejectedImport {
  constructor(readonly result: OrderImportResult) {}
}

/**
 * Checks every row against the rules of orders.service.ts and writes the valid ones (all of
 * them only when no row is rejected, unless keepValid) with their counters and ledger charges,
 * in one transaction. Rows go in batches: while one batch is written, the parser reads the
 * next and (on PostgreSQL and MySQL, whose look-ups use a second connection) it is checked. When
 * all or nothing is asked and a row is rejected, what was written rolls back and the answer
 * lists the rejected rows. People and prices are looked up once per name, as batches name them.
 */
export async function importOrders(db: Db, sheet: Sheet, op: Operator, locale: Locale, keepValid: boolean): Promise<OrderImportResult> {
  const at = mapHeaders(sheet.headers, locale);
  const headerText = (column: SheetColumn): string => {
    const index = (COLUMN_ORDER.includes(column) ? at.get(column as OrderSheetColumn) : undefined) ?? -1;
    const text = sheet.headers[index]?.trim();
    return text === undefined || text === '' ? headerOf(locale, column) : text;
  };
  const colon = locale === 'zh-CN' ? '：' : ': ';
  const nameOf = (r: SheetRow, column: 'userName' | 'inspectorName') => {
    const index = at.get(column);
    return index === undefined ? '' : cellText(r.cells[index] ?? null).trim();
  };

  try {
    return await writeTransaction(db, async (trx) => {
      const vocabulary = await loadImportVocabulary(trx);
      const parties = new Map<number, repo.PartyRow>();
      const ctx: CheckContext = { op, now: nowMs(), ...vocabulary.dicts, parties };
      const people = new Map<string, Person>();
      const rejected: ImportRejectedRow[] = [];
      const written: InsertedOrder[] = [];

      // On PostgreSQL and MySQL the look-ups go through another connection of the pool, so the
      // next batch is looked up and checked while the transaction's connection inserts this
      // one. SQLite has one connection, and it is the transaction's.
      const lookups = dialectOf(db) === 'sqlite' ? trx : db;

      /** The valid orders of a batch; its rejected rows go to `rejected`. Batches are checked in order. */
      const check = async (batch: readonly SheetRow[]): Promise<OrderValues[]> => {
        const names = new Set<string>();
        for (const r of batch) {
          for (const column of ['userName', 'inspectorName'] as const) {
            const name = nameOf(r, column);
            if (name !== '' && !people.has(name)) names.add(name);
          }
        }
        // Only the people this batch names for the first time are looked up, and their prices read.
        const ids = new Set<number>(parties.has(op.id) ? [] : [op.id]);
        if (names.size > 0) {
          for (const [name, person] of await findPeople(lookups, names)) {
            people.set(name, person);
            if (person !== null && 'id' in person && !parties.has(person.id)) ids.add(person.id);
          }
        }
        if (ids.size > 0) for (const party of await repo.findParties(lookups, [...ids])) parties.set(Number(party.id), party);

        const valid: OrderValues[] = [];
        for (const sheetRow of batch) {
          const parsed = parseRow(sheetRow, sheet.headers, at, vocabulary, people, op);
          const { issues, values } = checkOrder(parsed.input, ctx);
          const reported = new Set(parsed.problems.map((p) => p.column));
          const problems = [...parsed.problems];
          for (const issue of issues) {
            const column = (COLUMN_OF_FIELD[issue.field] ?? issue.field) as SheetColumn;
            if (!reported.has(column)) problems.push({ column, key: issue.key, params: issue.params });
          }
          if (problems.length === 0 && values !== null) {
            valid.push(values);
            continue;
          }
          problems.sort((a, b) => columnRank(a.column) - columnRank(b.column));
          rejected.push({ row: parsed.row, reasons: problems.map((p) => `${headerText(p.column)}${colon}${t(locale, p.key, p.params)}`), values: parsed.values });
        }
        return valid;
      };

      const write = async (valid: readonly OrderValues[]) => {
        // Once a row is rejected under all or nothing, nothing more is written (it all rolls back).
        if (valid.length > 0 && (keepValid || rejected.length === 0)) written.push(...(await insertFresh(trx, valid, op, ctx.now)));
      };

      // Two chains: batches are checked one after another, and written one after another, each
      // write once its batch is checked and the batch before it is written.
      let checked: Promise<unknown> = Promise.resolve();
      let work: Promise<void> = Promise.resolve();
      let failed = false;
      let batch: SheetRow[] = [];
      const handOver = () => {
        const next = batch;
        batch = [];
        const valid = checked.then(() => check(next));
        checked = valid;
        work = Promise.all([work, valid]).then(([, rows]) => write(rows));
        // Seen here so a failure is not "unhandled" while the parser reads on; awaited below.
        work.catch(() => (failed = true));
      };
      let total = 0;
      for await (const row of sheet.rows) {
        if (failed) break;
        if (row.cells.every(isBlank)) continue;
        if (++total > IMPORT_MAX_ROWS) {
          await work.catch(() => undefined);
          throw new AppError(400, 'orderImport.tooManyRows', { max: IMPORT_MAX_ROWS });
        }
        batch.push(row);
        if (batch.length >= IMPORT_BATCH) handOver();
      }
      if (batch.length > 0) handOver();
      await work;

      if (total === 0) throw new AppError(400, 'orderImport.noRows');
      if (!keepValid && rejected.length > 0) throw new RejectedImport({ total, imported: 0, rejected, keepValid });
      await recordInserted(trx, written, op, ctx.now);
      return { total, imported: written.length, rejected, keepValid };
    }, { bulk: true });
  } catch (error) {
    if (error instanceof RejectedImport) return error.result;
    throw error;
  }
}

// ── the template ──

const TEXT_COLUMNS: ReadonlySet<OrderSheetColumn> = new Set(['objWechat', 'objWechatName', 'gameName', 'mac', 'result', 'userName', 'objClientName', 'inspectorName', 'ifPublic', 'ifChangedMac', 'description']);
const COLUMN_WIDTH: Partial<Record<OrderSheetColumn, number>> = { installationTime: 20, mac: 20, description: 40, objClientName: 18 };

/** The import template: the headers in the caller's language, and a sheet that explains each column. */
export async function importTemplate(db: Db, locale: Locale): Promise<Buffer> {
  const vocabulary = await loadImportVocabulary(db);
  const workbook = new (await loadExcel()).Workbook();
  workbook.creator = 'ClearPlay';
  const sheet = workbook.addWorksheet(t(locale, 'orderSheet.sheet.orders'), { views: [{ state: 'frozen', ySplit: 1 }] });
  ORDER_SHEET_COLUMNS.forEach((column, i) => {
    const col = sheet.getColumn(i + 1);
    col.width = COLUMN_WIDTH[column] ?? 14;
    if (TEXT_COLUMNS.has(column)) col.numFmt = '@';
    if (column === 'installationTime') col.numFmt = 'yyyy-mm-dd hh:mm';
    if (column === 'amount') col.numFmt = '0.00';
  });
  const header = sheet.getRow(1);
  ORDER_SHEET_COLUMNS.forEach((column, i) => {
    const cell = header.getCell(i + 1);
    cell.value = headerOf(locale, column);
    cell.font = { bold: true, color: REQUIRED_COLUMNS.includes(column) ? { argb: 'FFC00000' } : undefined };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF2F2F2' } };
  });
  header.commit();

  const help = workbook.addWorksheet(t(locale, 'orderSheet.sheet.help'));
  help.getColumn(1).width = 18;
  help.getColumn(2).width = 10;
  help.getColumn(3).width = 90;
  help.addRow([t(locale, 'orderSheet.help.intro')]);
  help.mergeCells('A1:C1');
  help.getRow(1).getCell(1).alignment = { wrapText: true, vertical: 'top' };
  help.getRow(1).height = 36;
  const helpHeader = help.addRow([t(locale, 'orderSheet.help.column'), t(locale, 'orderSheet.help.required'), t(locale, 'orderSheet.help.format')]);
  helpHeader.font = { bold: true };
  const explain: Record<OrderSheetColumn, string> = {
    objWechat: t(locale, 'orderSheet.help.objWechat'),
    objWechatName: t(locale, 'orderSheet.help.objWechatName'),
    gameName: t(locale, 'orderSheet.help.gameName', { values: vocabulary.gameLabels.join(', ') }),
    mac: t(locale, 'orderSheet.help.mac'),
    installationTime: t(locale, 'orderSheet.help.installationTime'),
    result: t(locale, 'orderSheet.help.result', { values: vocabulary.allowed.result.replace(/, 0–3$/, '') }),
    userName: t(locale, 'orderSheet.help.userName'),
    objClientName: t(locale, 'orderSheet.help.objClientName'),
    inspectorName: t(locale, 'orderSheet.help.inspectorName'),
    amount: t(locale, 'orderSheet.help.amount'),
    ifPublic: t(locale, 'orderSheet.help.ifPublic', { values: vocabulary.allowed.ifPublic }),
    ifChangedMac: t(locale, 'orderSheet.help.ifChangedMac', { values: vocabulary.allowed.ifChangedMac }),
    description: t(locale, 'orderSheet.help.description'),
  };
  for (const column of ORDER_SHEET_COLUMNS) {
    const required = REQUIRED_COLUMNS.includes(column);
    help.addRow([headerOf(locale, column), t(locale, required ? 'orderSheet.help.yes' : 'orderSheet.help.no'), explain[column]]).getCell(3).alignment = { wrapText: true };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
