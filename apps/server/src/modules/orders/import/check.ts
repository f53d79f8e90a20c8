/**
 * Step 2 of an order import, checking: a batch of sheet rows as orders. Each row's cells are
 * read into what a person enters (times in Beijing time unless the text names a zone, see
 * orders.sheet.ts; amounts in CNY; coded cells by label, value or English word), the people
 * it names are looked up once per name, and every row goes through orders.service.ts
 * `checkOrder`, the rules and prices of a created order. Rejected rows go to the report.
 */
import { ORDER_TEXT_MAX, type OrderSheetColumn } from '@clearplay/contract';
import { lowerAsDb } from '../../../db/text-search.ts';
import type { Db } from '../../../db/index.ts';
import type { Operator } from '../../../http/route-context.ts';
import { AppError } from '../../../lib/errors.ts';
import type { Locale } from '../../../lib/messages.ts';
import * as repo from '../orders.repository.ts';
import { charCount, checkOrder, type CheckContext, type OrderInput, type OrderValues } from '../orders.rules.ts';
import {
  REQUIRED_COLUMNS,
  SHEET_ZONE_OFFSET_MS,
  columnOfHeader,
  headerOf,
  type CodedField,
  type ImportVocabulary,
  type SheetColumn,
} from '../files/orders.sheet.ts';
import { changedMacUnset } from './history.ts';
import { cellText, isBlank, type Cell, type SheetRow } from './read.ts';
import type { ImportReport, Problem } from './report.ts';

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
  const [year, month, day, hour, minute, second] = wall.slice(1, 7).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
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
const macText = (cell: Cell): string =>
  typeof cell === 'number' && Number.isInteger(cell) && cell >= 0 && cell < 1e12 ? String(cell).padStart(12, '0') : cellText(cell).trim();

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
    found.set(
      name,
      byNickname.length === 1 ? { id: Number(byNickname[0]!.id) } : byNickname.length > 1 ? { ambiguous: byNickname.length } : null,
    );
  }
  return found;
}

// ── a row, a batch ──

/** checkOrder's field → the sheet column that holds it. */
const COLUMN_OF_FIELD: Record<string, SheetColumn> = { userId: 'userName', inspectorId: 'inspectorName' };

interface ParsedRow {
  row: number;
  values: Record<string, string>;
  input: OrderInput;
  problems: Problem[];
}

/** The header → column map of a sheet; a duplicate or a missing required column stops the import. */
export function mapHeaders(headers: readonly string[], locale: Locale): Map<OrderSheetColumn, number> {
  const at = new Map<OrderSheetColumn, number>();
  headers.forEach((text, index) => {
    const column = columnOfHeader(text);
    if (column === undefined) return;
    if (at.has(column)) throw new AppError(400, 'orderImport.duplicateHeader', { header: text.trim() });
    at.set(column, index);
  });
  const missing = REQUIRED_COLUMNS.filter((c) => !at.has(c));
  if (missing.length > 0) {
    throw new AppError(400, 'orderImport.missingColumns', {
      columns: missing.map((c) => headerOf(locale, c)).join(locale === 'zh-CN' ? '、' : ', '),
    });
  }
  return at;
}

/** A sheet row's cells as what a person enters, with the problems found reading them. */
function parseRow(
  sheetRow: SheetRow,
  headers: readonly string[],
  at: ReadonlyMap<OrderSheetColumn, number>,
  vocabulary: ImportVocabulary,
  people: ReadonlyMap<string, Person>,
  op: Operator,
): ParsedRow {
  const problems: Problem[] = [];
  const cell = (column: OrderSheetColumn): Cell => {
    const index = at.get(column);
    return index === undefined ? null : (sheetRow.cells[index] ?? null);
  };
  const text = (column: OrderSheetColumn, max?: number): string => {
    const value = cellText(cell(column)).trim();
    if (max !== undefined && charCount(value) > max) problems.push({ column, key: 'order.tooLong', params: { max } });
    return value;
  };
  const coded = (column: CodedField): number | undefined => {
    const value = parseCoded(cell(column), vocabulary.words[column]);
    if (value === null)
      problems.push({
        column,
        key: column === 'result' ? 'orderImport.result' : 'orderImport.flag',
        params: { value: cellText(cell(column)).trim().slice(0, 40), allowed: vocabulary.allowed[column] },
      });
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
    else if ('ambiguous' in found)
      problems.push({ column, key: 'orderImport.userAmbiguous', params: { name: name.slice(0, 64), count: found.ambiguous } });
    return found !== null && 'id' in found ? found.id : -1;
  };

  const installationCell = cell('installationTime');
  let installationAt = Number.NaN;
  if (isBlank(installationCell)) problems.push({ column: 'installationTime', key: 'order.required' });
  else {
    const parsed = parseSheetTime(installationCell);
    if (parsed === null)
      problems.push({
        column: 'installationTime',
        key: 'orderImport.time',
        params: { value: cellText(installationCell).trim().slice(0, 40) },
      });
    else installationAt = parsed;
  }
  const result = coded('result');
  if (result === undefined && isBlank(cell('result'))) problems.push({ column: 'result', key: 'order.required' });
  const amount = parseAmount(cell('amount'));
  if (amount === null)
    problems.push({ column: 'amount', key: 'orderImport.amount', params: { value: cellText(cell('amount')).trim().slice(0, 40) } });
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

export interface BatchCheck {
  /** Where the look-ups go (another connection than the writes' on PostgreSQL and MySQL). */
  lookups: Db;
  headers: readonly string[];
  at: ReadonlyMap<OrderSheetColumn, number>;
  vocabulary: ImportVocabulary;
  op: Operator;
  now: number;
  report: ImportReport;
}

/**
 * The check of an import's batches: the valid orders of a batch; its rejected rows go to the
 * report. Batches are checked in order; people and prices are looked up once per name, as
 * batches name them.
 */
export function batchChecker({
  lookups,
  headers,
  at,
  vocabulary,
  op,
  now,
  report,
}: BatchCheck): (batch: readonly SheetRow[]) => Promise<OrderValues[]> {
  const parties = new Map<number, repo.PartyRow>();
  const ctx: CheckContext = { op, now, ...vocabulary.dicts, parties };
  const people = new Map<string, Person>();
  const nameOf = (r: SheetRow, column: 'userName' | 'inspectorName') => {
    const index = at.get(column);
    return index === undefined ? '' : cellText(r.cells[index] ?? null).trim();
  };
  return async (batch: readonly SheetRow[]): Promise<OrderValues[]> => {
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
      const parsed = parseRow(sheetRow, headers, at, vocabulary, people, op);
      const { issues, values } = checkOrder(parsed.input, ctx);
      const reported = new Set(parsed.problems.map((p) => p.column));
      const problems = [...parsed.problems];
      for (const issue of issues) {
        const column = (COLUMN_OF_FIELD[issue.field] ?? issue.field) as SheetColumn;
        if (!reported.has(column)) problems.push({ column, key: issue.key, params: issue.params });
      }
      if (problems.length === 0 && values !== null) {
        if (parsed.input.ifChangedMac === undefined) changedMacUnset.add(values);
        valid.push(values);
        continue;
      }
      report.reject(parsed.row, problems, parsed.values);
    }
    return valid;
  };
}
