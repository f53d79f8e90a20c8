// Reading an order import's csv (decision 0089): the import's reader (import/read.ts readSheet,
// csv-parse fed 64 KB slices, rows handed over as they are parsed) beside the hand-written
// parser it replaced (below, as it was: the whole file decoded, then every record split into an
// array before the first row was checked), in the same run, on the same 50,000-row file (the
// import's limit) as a person fills the zh-CN template. Time to the first row and to the last.
import { ORDER_SHEET_COLUMNS } from '@clearplay/contract';
import { readSheet } from '../apps/server/src/modules/orders/import/read.ts';
import { headerOf } from '../apps/server/src/modules/orders/files/orders.sheet.ts';
import { fmt, percentiles, ratio, type Section } from './lib.ts';

const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 50_000);
const ROUNDS = 9;
const WARMUP = 2;

/** A filled-in template: Chinese labels and names, a quoted description with a comma now and then. */
function templateCsv(rows: number): Buffer {
  const lines = [ORDER_SHEET_COLUMNS.map((c) => headerOf('zh-CN', c)).join(',')];
  for (let i = 0; i < rows; i++) {
    const mac = Array.from({ length: 6 }, (_, k) => (((i + 1) * (k + 7) * 2654435761) >>> 24).toString(16).padStart(2, '0')).join(':');
    const description = i % 10 === 0 ? '"复检：设备与上次检测一致，""已确认"""' : '';
    lines.push(
      [
        `wxid_csv${i}`,
        `玩家${i}`,
        '和平精英',
        mac,
        '2026-01-02 03:04',
        '正常',
        `shop${i % 2000}`,
        `店铺${i % 3000}`,
        '',
        '',
        '私密',
        '未更换',
        description,
      ].join(','),
    );
  }
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

// ── the former reader, verbatim but for its errors (plain Errors here) ──

function formerLooksBinary(text: string): boolean {
  const end = Math.min(text.length, 65_536);
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) return true;
  }
  return false;
}

function formerParseCsv(text: string, maxRecords = Number.POSITIVE_INFINITY): string[][] {
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
    if (records.length > maxRecords) throw new Error('too many rows');
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
  if (quoted) throw new Error('quote not closed');
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

/** The former readSheet's csv path: decode, check, parse all, then hand the rows over. */
function formerReadCsv(data: Buffer): { headers: string[]; rows: AsyncIterable<{ row: number; cells: string[] }> } {
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  if (formerLooksBinary(text)) throw new Error('not a spreadsheet');
  const [header, ...rest] = formerParseCsv(text, 50_001);
  if (header === undefined) throw new Error('empty');
  return {
    headers: header,
    rows: (async function* () {
      for (let i = 0; i < rest.length; i++) yield { row: i + 2, cells: rest[i]! };
    })(),
  };
}

interface Reading {
  firstMs: number;
  allMs: number;
  rows: number;
  cells: number;
}

/** Reads every row as the import does, timing the first row and the last. */
async function timeReading(open: () => Promise<{ headers: string[]; rows: AsyncIterable<{ cells: unknown[] }> }>): Promise<Reading> {
  const t0 = performance.now();
  const sheet = await open();
  let firstMs = 0;
  let rows = 0;
  let cells = 0;
  for await (const row of sheet.rows) {
    if (rows === 0) firstMs = performance.now() - t0;
    rows++;
    cells += row.cells.length;
  }
  return { firstMs, allMs: performance.now() - t0, rows, cells };
}

export async function run(): Promise<Section[]> {
  const file = templateCsv(ROWS);
  const ours = () => timeReading(() => readSheet(file));
  const former = () => timeReading(async () => formerReadCsv(file));
  const check = (a: Reading, b: Reading) => {
    if (a.rows !== ROWS || b.rows !== ROWS || a.cells !== b.cells)
      throw new Error(`csv bench: ${a.rows}/${b.rows} rows, ${a.cells}/${b.cells} cells, expected ${ROWS} rows`);
  };
  for (let i = 0; i < WARMUP; i++) check(await ours(), await former());
  const now: Reading[] = [];
  const before: Reading[] = [];
  // Alternating, so both see the same load on a shared machine.
  for (let i = 0; i < ROUNDS; i++) {
    const a = await ours();
    const b = await former();
    check(a, b);
    now.push(a);
    before.push(b);
  }
  const p = (list: Reading[], key: 'firstMs' | 'allMs') => percentiles(list.map((r) => r[key]));
  const [allNow, allBefore, firstNow, firstBefore] = [p(now, 'allMs'), p(before, 'allMs'), p(now, 'firstMs'), p(before, 'firstMs')];
  const body = `
| reading a ${fmt(ROWS)}-row csv (${fmt(file.length / 1024 / 1024, 1)} MB) | csv-parse (now) | hand-written (before) | ratio |
|---|---|---|---|
| to the last row, p50 ms | **${fmt(allNow.p50)}** | ${fmt(allBefore.p50)} | ${ratio(allNow.p50, allBefore.p50)} |
| to the last row, p95 ms | ${fmt(allNow.p95)} | ${fmt(allBefore.p95)} | ${ratio(allNow.p95, allBefore.p95)} |
| to the first row, p50 ms | **${fmt(firstNow.p50, 1)}** | ${fmt(firstBefore.p50, 1)} | ${ratio(firstNow.p50, firstBefore.p50)} |

${ROUNDS} rounds after ${WARMUP} untimed ones, the two readers alternating, in one process. The file is
the zh-CN template filled in (UTF-8 with a byte order mark, CRLF, a quoted description with a comma
and doubled quotes in every tenth row). "Now" is \`readSheet\` (\`apps/server/src/modules/orders/import/read.ts\`):
the UTF-8 check, then csv-parse fed 64 KB slices, each row handed over as it is parsed; "before" is
the hand-written parser it replaced (kept in \`bench/csv-import.bench.ts\`): the whole file decoded,
then split into an array of every record before the first row was handed over. Only the reading is
timed: in an import the rows are checked and written while the reader goes on (orders.import.ts),
so the time to the first row is when that work can start.
`;
  return [{ title: 'Order import: reading a csv', body }];
}
