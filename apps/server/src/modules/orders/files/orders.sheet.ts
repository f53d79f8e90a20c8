/**
 * What the order import, its template, the export and the download share: column headers in
 * both languages, the dictionary labels of the coded fields, times in Beijing time, formula
 * neutralisation and the download file name header.
 *
 * Spreadsheet times: Excel stores a date as a number of days with no time zone, so every
 * time read from or written to a sheet is Beijing wall-clock time (UTC+8, the business's
 * zone, no daylight saving). Text that names its zone (`2026-01-02T07:04:00Z`) is taken as
 * written.
 */
import { localizedLabel, ORDER_DICTS, ORDER_SHEET_COLUMNS, type OrderSheetColumn } from '@clearplay/contract';
import type { Db } from '../../../db/index.ts';
import { t, type Locale, type MessageKey } from '../../../lib/messages.ts';
import { HOUR_MS } from '../../../lib/time.ts';
import { allEntries, enabledEntriesOf } from '../../dicts/dicts.service.ts';

/** Every column an export holds: the import's columns plus the ones the server fills in. */
export const EXPORT_COLUMNS = [
  'code',
  ...ORDER_SHEET_COLUMNS,
  'certImages',
  'proofImages',
  'personCertImages',
  'createdTime',
  'updatedTime',
] as const;
export type SheetColumn = (typeof EXPORT_COLUMNS)[number];

/** Columns an import cannot do without; the others have a default (see import/check.ts). */
export const REQUIRED_COLUMNS: readonly OrderSheetColumn[] = [
  'objWechat',
  'objWechatName',
  'gameName',
  'mac',
  'installationTime',
  'result',
  'userName',
  'objClientName',
];

/** Each column's header message (the type checker makes sure every one exists). */
const headerKey = (column: SheetColumn): MessageKey => `orderSheet.header.${column}`;

export const headerOf = (locale: Locale, column: SheetColumn): string => t(locale, headerKey(column));

/** Header text as compared: no spaces, lower case, without a trailing `*` or `(note)`. */
export const normalizeHeader = (text: string): string =>
  text
    .replace(/\s+/g, '')
    .replace(/\*+$/, '')
    .replace(/[（(][^（()）]*[)）]$/, '')
    .replace(/^\*+/, '')
    .toLowerCase();

/** Every header text an import understands: both languages, the field names, and "MAC". */
const HEADER_COLUMNS: ReadonlyMap<string, OrderSheetColumn> = (() => {
  const map = new Map<string, OrderSheetColumn>();
  for (const column of ORDER_SHEET_COLUMNS) {
    for (const text of [headerOf('zh-CN', column), headerOf('en-US', column), column]) map.set(normalizeHeader(text), column);
  }
  map.set('mac', 'mac');
  return map;
})();

/** The import column a header names, or undefined for a column the import ignores. */
export const columnOfHeader = (text: string): OrderSheetColumn | undefined => HEADER_COLUMNS.get(normalizeHeader(text));

// ── coded fields: dictionary labels and the English names ──

/** English names of the results (the dictionary's labels are Chinese). */
export const RESULT_NAMES = ['normal', 'cheating', 'failed', 'suspicious'] as const;
/** RESULT_NAMES and a few other spellings. */
const RESULT_WORDS: Record<string, number> = {
  normal: 0,
  cheating: 1,
  cheat: 1,
  failed: 2,
  fail: 2,
  'not passed': 2,
  'not pass': 2,
  suspicious: 3,
  suspect: 3,
};
const PUBLIC_WORDS: Record<string, number> = { public: 1, private: 0, yes: 1, no: 0, y: 1, n: 0, true: 1, false: 0, 是: 1, 否: 0 };
const CHANGED_WORDS: Record<string, number> = {
  changed: 1,
  unchanged: 0,
  'not changed': 0,
  yes: 1,
  no: 0,
  y: 1,
  n: 0,
  true: 1,
  false: 0,
  是: 1,
  否: 0,
};

export type CodedField = 'result' | 'ifPublic' | 'ifChangedMac';

export interface DictLabels {
  /** value → label, every entry (disabled ones too: an old order still shows its label). */
  labels: Record<CodedField, ReadonlyMap<string, string>>;
}

/** The labels of the order dictionaries in the reader's language (decision 0066), read once per export or download. */
export async function loadDictLabels(db: Db, locale: Locale): Promise<DictLabels> {
  const rows = await allEntries(db);
  const of = (type: string) =>
    new Map(rows.filter((r) => r.typeCode === type).map((r) => [r.value, localizedLabel(r.label, r.labelEn, locale)] as const));
  return {
    labels: { result: of(ORDER_DICTS.result), ifPublic: of(ORDER_DICTS.ifPublic), ifChangedMac: of(ORDER_DICTS.ifChangedMac) },
  };
}

/** The label of a stored value, or the value itself when the dictionary lacks it. */
export const labelOf = (dict: DictLabels, field: CodedField, value: number): string =>
  dict.labels[field].get(String(value)) ?? String(value);

/** What an import accepts in the coded columns: enabled dictionary labels and values, plus English words. */
export interface ImportVocabulary {
  /** lower-cased text → value */
  words: Record<CodedField, ReadonlyMap<string, number>>;
  /** How each field's accepted values are listed in a reason. */
  allowed: Record<CodedField, string>;
  /** Game label → value (a game is stored by its value). */
  games: ReadonlyMap<string, string>;
  gameLabels: readonly string[];
  /** The enabled games and results as the checks take them (orders.service.ts loadDictSets), from the same reads. */
  dicts: { games: Set<string>; results: Set<string> };
}

export async function loadImportVocabulary(db: Db): Promise<ImportVocabulary> {
  const [results, publics, changed, games] = await Promise.all([
    enabledEntriesOf(db, ORDER_DICTS.result),
    enabledEntriesOf(db, ORDER_DICTS.ifPublic),
    enabledEntriesOf(db, ORDER_DICTS.ifChangedMac),
    enabledEntriesOf(db, ORDER_DICTS.game),
  ]);
  const build = (entries: readonly { label: string; labelEn: string; value: string }[], words: Record<string, number>) => {
    const map = new Map<string, number>();
    for (const [word, value] of Object.entries(words)) map.set(word, value);
    for (const e of entries) {
      const value = Number(e.value);
      if (!Number.isInteger(value)) continue;
      map.set(e.value.trim().toLowerCase(), value);
      map.set(e.label.trim().toLowerCase(), value);
      if (e.labelEn.trim() !== '') map.set(e.labelEn.trim().toLowerCase(), value);
    }
    return map;
  };
  const list = (entries: readonly { label: string; value: string }[], extra: string) => [...entries.map((e) => e.label), extra].join(', ');
  return {
    words: { result: build(results, RESULT_WORDS), ifPublic: build(publics, PUBLIC_WORDS), ifChangedMac: build(changed, CHANGED_WORDS) },
    allowed: {
      result: list(results, `${RESULT_NAMES.join(', ')}, 0–3`),
      ifPublic: list(publics, 'public, private, 1, 0'),
      ifChangedMac: list(changed, 'yes, no, 1, 0'),
    },
    games: new Map(
      games.flatMap((g) => [
        [g.label.trim(), g.value] as const,
        ...(g.labelEn.trim() === '' ? [] : [[g.labelEn.trim(), g.value] as const]),
      ]),
    ),
    gameLabels: games.map((g) => g.label),
    dicts: { games: new Set(games.map((g) => g.value)), results: new Set(results.map((r) => r.value)) },
  };
}

// ── times (Beijing time, see the file comment) ──

export const SHEET_ZONE_OFFSET_MS = 8 * HOUR_MS;

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm:ss` of the UTC fields of a date (a sheet's wall-clock value). */
export const formatWallClock = (date: Date): string =>
  `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;

/** An instant as Beijing wall-clock time, `YYYY-MM-DD HH:mm:ss`. */
export const formatBeijing = (ms: number): string => formatWallClock(new Date(ms + SHEET_ZONE_OFFSET_MS));

/** An instant as the Date a spreadsheet cell shows as Beijing wall-clock time. */
export const beijingCellDate = (ms: number): Date => new Date(ms + SHEET_ZONE_OFFSET_MS);

/** `20260102-150405` in Beijing time, for file names. */
export const fileStamp = (ms: number): string => formatBeijing(ms).replace(/-/g, '').replace(' ', '-').replace(/:/g, '');

// ── cells and files ──

/** `attachment` with an ASCII fallback name and the real name as RFC 6266 / 5987 `filename*`. */
export function attachment(fileName: string, asciiFallback: string): string {
  const safe = asciiFallback.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${safe}"; filename*=UTF-8''${encoded}`;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
