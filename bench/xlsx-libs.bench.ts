// Over 200 lines: one benchmark, the xlsx libraries side by side (issue 26 §3, decision 0116).
// The server's xlsx library (exceljs 4.4: the order import's reader and the import template's
// writer) beside the alternatives on the npm registry, in the same run, alternating:
// - reading an order import of 10,000 and 40,000 rows (the template filled in, as exceljs and
//   Excel store it: shared strings), and the largest file the upload admits (300,000 rows,
//   18.6 MB, 181 MB unpacked; the import refuses it at row 50,001): time, CPU, peak memory,
//   and whether each read the same cells;
// - writing an order export of 100,000 rows as a stream: time, time to the first byte, peak
//   memory, file size (the server's own writer, lib/xlsx-stream.ts, beside them);
// - the packages and bytes each library brings into an install.
// Each measurement runs in a process of its own (bench/xlsx-libs-child.ts), so a peak of memory
// is that library's. BENCH_XLSX_ROUNDS (default 3), BENCH_XLSX_BIG=0 (skip the largest file).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ORDER_SHEET_COLUMNS } from '@clearplay/contract';
import ExcelJS from 'exceljs';
import { headerOf } from '../apps/server/src/modules/orders/files/orders.sheet.ts';
import { XlsxStreamWriter } from '../apps/server/src/lib/xlsx-stream.ts';
import { fmt, percentiles, ratio, repoRoot, type Section } from './lib.ts';
import type { Lib, Measured } from './xlsx-libs-child.ts';

const ROUNDS = Number(process.env.BENCH_XLSX_ROUNDS ?? 3);
const BIG = process.env.BENCH_XLSX_BIG !== '0';
const EXPORT_ROWS = 100_000;
const BIG_ROWS = 300_000;
const CHILD_TIMEOUT_MS = 300_000;

const READERS: Lib[] = ['exceljs', 'exceljs-plain', 'read-excel-file', 'sheetjs'];
/** On the largest file: the import's reader stops where the import does; the others cannot. */
const BIG_READERS: Lib[] = ['exceljs', 'read-excel-file', 'sheetjs'];
const WRITERS: Lib[] = ['exceljs', 'ours', 'write-excel-file', 'sheetjs'];
const NAME: Record<Lib, string> = {
  exceljs: 'exceljs 4.4.0',
  'exceljs-plain': 'exceljs 4.4.0, its reader as shipped',
  ours: 'lib/xlsx-stream.ts (ours, yazl)',
  'read-excel-file': 'read-excel-file 9.3',
  'write-excel-file': 'write-excel-file 4.1',
  sheetjs: 'SheetJS CE 0.20.3 (@e965/xlsx)',
};

// ── the files ──

const mac = (i: number) => [0xaa, 0xbb, 0xcc, i >> 16, i >> 8, i].map((b) => (b & 255).toString(16).padStart(2, '0')).join(':');
function importRow(i: number): (string | number | Date | null)[] {
  return [
    `wxid_${i}`,
    `玩家${i}`,
    '和平精英',
    mac(i),
    new Date(Date.UTC(2026, 0, 2, 3, 4) + i * 60_000),
    ['正常', '作弊', '未通过', '可疑'][i % 4]!,
    `shop${i % 2000}`,
    `店铺${i % 3000}`,
    null,
    i % 7 === 0 ? 12.5 : null,
    i % 3 === 0 ? '公开' : '私密',
    i % 12 === 0 ? '已更换' : '未更换',
    i % 10 === 0 ? '复检：设备与上次检测一致' : '',
  ];
}
const HEADERS = ORDER_SHEET_COLUMNS.map((c) => headerOf('zh-CN', c));

/** The zh-CN template filled in, as exceljs (and Excel) store it: shared strings, sheet before them. */
async function importFile(rows: number): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('订单');
  sheet.addRow(HEADERS);
  for (let i = 0; i < rows; i++) sheet.addRow(importRow(i));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The largest file the upload admits (under 20 MB packed, 200 MB unpacked): inline strings. */
async function bigFile(path: string): Promise<void> {
  const writer = new XlsxStreamWriter(
    '订单',
    HEADERS.map(() => ({ width: 14 })),
  );
  const done = pipeline(writer.stream, createWriteStream(path));
  writer.writeRow(HEADERS, true);
  for (let i = 0; i < BIG_ROWS; i++) {
    writer.writeRow(importRow(i));
    if (i % 500 === 0) await writer.drained();
  }
  writer.end();
  await done;
}

// ── one measurement in a child process ──

function measure(task: 'read' | 'export', lib: Lib, arg: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const args = [
      '--import',
      'tsx',
      join(repoRoot, 'bench', 'xlsx-libs-child.ts'),
      task,
      lib,
      ...(task === 'read' ? [arg, ''] : ['', arg]),
    ];
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const started = performance.now();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, CHILD_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop() ?? '';
      if (line.startsWith('{')) return resolve(JSON.parse(line) as Measured);
      // Died without answering (out of memory, a stack overflow outside a try, the timeout).
      const last = timedOut
        ? `not done in ${CHILD_TIMEOUT_MS / 1000} s`
        : (err
            .trim()
            .split('\n')
            .filter((l) => /Error|FATAL|heap/i.test(l))[0] ?? `exit ${code ?? signal}`);
      const ms = performance.now() - started;
      if (signal !== null || code !== null)
        resolve({ loadMs: 0, ms, cpuMs: 0, rssAfterLoadMb: 0, peakRssMb: 0, rows: 0, error: last.slice(0, 120) });
      else reject(new Error(`xlsx-libs child: ${err}`));
    });
  });
}

/** `rounds` rounds of each library in turn (the order turning every round), per library. */
async function alternate(task: 'read' | 'export', libs: Lib[], arg: string, rounds: number): Promise<Map<Lib, Measured[]>> {
  const results = new Map<Lib, Measured[]>(libs.map((l) => [l, []]));
  for (let r = 0; r < rounds; r++) {
    const order = [...libs.slice(r % libs.length), ...libs.slice(0, r % libs.length)];
    for (const lib of order) results.get(lib)!.push(await measure(task, lib, arg));
  }
  return results;
}

const p50 = (list: Measured[], key: 'ms' | 'cpuMs' | 'peakRssMb' | 'loadMs' | 'firstByteMs') =>
  percentiles(list.map((m) => m[key] ?? 0)).p50;

// ── installed packages and bytes ──

interface Closure {
  dirs: Set<string>;
}

function packageJson(dir: string): { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as never;
}

/** Where `name` resolves from the package at `from`, as Node does: the nearest node_modules up the tree. */
function resolveDir(name: string, from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === repoRoot || dir === dirname(dir)) return null;
  }
}

/** Every installed package a set of dependencies brings in (runtime: dependencies and installed optional ones). */
function closure(names: readonly string[], from: string): Closure {
  const dirs = new Set<string>();
  const visit = (name: string, at: string, optional: boolean) => {
    const dir = resolveDir(name, at);
    if (dir === null) {
      if (optional) return;
      throw new Error(`xlsx-libs: ${name} not installed (from ${at})`);
    }
    if (dirs.has(dir)) return;
    dirs.add(dir);
    const pkg = packageJson(dir);
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const name of names) visit(name, from, false);
  return { dirs };
}

/** Bytes of a package's files (apparent size), its own node_modules left out (counted as packages of their own). */
function bytesOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesOf(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}
const sizeOf = (dirs: Iterable<string>) => [...dirs].reduce((sum, d) => sum + bytesOf(d), 0);

function installFigures() {
  const serverDir = join(repoRoot, 'apps', 'server');
  const server = packageJson(serverDir);
  const runtime = [...Object.keys(server.dependencies ?? {})];
  const optional = Object.keys(server.optionalDependencies ?? {}).filter((n) => resolveDir(n, serverDir) !== null);
  const all = closure([...runtime, ...optional], serverDir);
  const without = closure([...runtime.filter((n) => n !== 'exceljs'), ...optional], serverDir);
  const onlyExceljs = [...all.dirs].filter((d) => !without.dirs.has(d));
  const adds = (names: string[]) => {
    const own = closure(names, repoRoot);
    const added = [...own.dirs].filter((d) => !without.dirs.has(d));
    return { packages: own.dirs.size, added: added.length, bytes: sizeOf(own.dirs) };
  };
  return {
    serverPackages: all.dirs.size,
    onlyExceljs: onlyExceljs.length,
    onlyExceljsBytes: sizeOf(onlyExceljs),
    exceljs: adds(['exceljs']),
    rxfWxf: adds(['read-excel-file', 'write-excel-file']),
    sheetjs: adds(['@e965/xlsx']),
  };
}

// ── the section ──

const mbText = (bytes: number) => fmt(bytes / 1024 / 1024, 1);

export async function run(): Promise<Section[]> {
  const dir = mkdtempSync(join(tmpdir(), 'xlsx-libs-'));
  try {
    const files: [string, number][] = [];
    for (const rows of [10_000, 40_000]) {
      const path = join(dir, `import-${rows}.xlsx`);
      writeFileSync(path, await importFile(rows));
      files.push([path, rows]);
    }
    const install = installFigures();

    let readRows = '';
    const readNotes: string[] = [];
    const summaryParts: string[] = [];
    for (const [path, rows] of files) {
      const results = await alternate('read', READERS, path, ROUNDS);
      const base = results.get('exceljs')!;
      const baseDigest = results.get('read-excel-file')![0]!.digest;
      for (const lib of READERS) {
        const list = results.get(lib)!;
        const m = list[0]!;
        const same = list.every((x) => x.digest === baseDigest) ? 'yes' : '**no**';
        readRows += `| ${fmt(rows)} rows (${fmt(statSync(path).size / 1024)} KB) | ${NAME[lib]} | ${fmt(p50(list, 'ms'))} | ${ratio(p50(list, 'ms'), p50(base, 'ms'))} | ${fmt(p50(list, 'cpuMs'))} | ${ratio(p50(list, 'cpuMs'), p50(base, 'cpuMs'))} | ${fmt(p50(list, 'peakRssMb'))} | ${ratio(p50(list, 'peakRssMb'), p50(base, 'peakRssMb'))} | ${fmt(p50(list, 'loadMs'))} | ${same} | ${fmt(m.replaced ?? 0)} | ${fmt(m.offDates ?? 0)} |\n`;
        if (m.error) readNotes.push(`${NAME[lib]} on ${fmt(rows)} rows: ${m.error}`);
      }
      if (rows === 40_000) {
        const r = (lib: Lib) => ratio(p50(results.get(lib)!, 'cpuMs'), p50(base, 'cpuMs'));
        summaryParts.push(`reading 40,000 rows, CPU ÷ exceljs: read-excel-file ${r('read-excel-file')}, SheetJS ${r('sheetjs')}`);
      }
    }

    let bigRows = '';
    if (BIG) {
      const path = join(dir, 'largest.xlsx');
      await bigFile(path);
      const results = await alternate('read', BIG_READERS, path, 1);
      const base = results.get('exceljs')![0]!;
      for (const lib of BIG_READERS) {
        const m = results.get(lib)![0]!;
        const outcome = m.error
          ? `failed: ${m.error}`
          : lib === 'exceljs'
            ? `stopped at row ${fmt(m.rows)} (the import's refusal)`
            : `${fmt(m.rows)} rows parsed before the first is seen`;
        bigRows += `| ${NAME[lib]} | ${fmt(m.ms)} | ${ratio(m.ms, base.ms)} | ${fmt(m.peakRssMb)} | ${ratio(m.peakRssMb, base.peakRssMb)} | ${outcome} |\n`;
      }
      const rx = results.get('read-excel-file')![0]!;
      const sj = results.get('sheetjs')![0]!;
      summaryParts.push(
        `largest admitted file, peak memory ÷ exceljs: read-excel-file ${rx.error ? `failed (${rx.error.split(':')[0]})` : ratio(rx.peakRssMb, base.peakRssMb)}, SheetJS ${ratio(sj.peakRssMb, base.peakRssMb)}`,
      );
    }

    const exports = await alternate('export', WRITERS, String(EXPORT_ROWS), ROUNDS);
    const eb = exports.get('exceljs')!;
    let exportRows = '';
    for (const lib of WRITERS) {
      const list = exports.get(lib)!;
      const bytes = list[0]!.bytes ?? 0;
      exportRows += `| ${NAME[lib]} | ${fmt(p50(list, 'ms'))} | ${ratio(p50(list, 'ms'), p50(eb, 'ms'))} | ${fmt(p50(list, 'firstByteMs'))} | ${fmt(p50(list, 'peakRssMb'))} | ${ratio(p50(list, 'peakRssMb'), p50(eb, 'peakRssMb'))} | ${mbText(bytes)} | ${ratio(bytes, eb[0]!.bytes ?? 0)} |\n`;
    }
    const ours = exports.get('ours')!;
    summaryParts.push(`export 100,000 rows, time ÷ exceljs: ours ${ratio(p50(ours, 'ms'), p50(eb, 'ms'))}`);

    const body = `
Issue 26 §3: exceljs brings most of the server's runtime packages. The server's packages now: **${fmt(install.serverPackages)}** installed
packages in its runtime tree (dependencies and installed optional ones, resolved as Node does), **${fmt(install.onlyExceljs)}**
of them (${mbText(install.onlyExceljsBytes)} MB) there only because of exceljs.

| library (runtime) | packages it brings | of them new to the server | installed MB | MB ÷ exceljs |
|---|---|---|---|---|
| ${NAME.exceljs} | ${install.exceljs.packages} | ${install.exceljs.added} | ${mbText(install.exceljs.bytes)} | 1.000 |
| read-excel-file 9.3 + write-excel-file 4.1 | ${install.rxfWxf.packages} | ${install.rxfWxf.added} | ${mbText(install.rxfWxf.bytes)} | ${ratio(install.rxfWxf.bytes, install.exceljs.bytes)} |
| ${NAME.sheetjs} | ${install.sheetjs.packages} | ${install.sheetjs.added} | ${mbText(install.sheetjs.bytes)} | ${ratio(install.sheetjs.bytes, install.exceljs.bytes)} |

**Reading an order import** (the unpacked-size check, then the library), p50 of ${ROUNDS} rounds, each in a fresh process, the
libraries alternating. "exceljs 4.4.0" is the import's own reader (\`readSheet\`: the parts its streaming reader needs first
moved to the front, and its text decoded across chunks, decision 0116); "as shipped" is the same without the decoding, as the
import read before:

| file | library | ms | ÷ exceljs | CPU ms | ÷ exceljs | peak RSS MB | ÷ exceljs | load ms | same cells | broken characters | dates off a whole second |
|---|---|---|---|---|---|---|---|---|---|---|---|
${readRows.trimEnd()}

"Same cells": every cell (a date to the second) as read-excel-file read them. "Broken characters": text cells holding U+FFFD,
where a reader split a multi-byte character (the file holds none). "Dates off a whole second": date cells read as, say,
03:04:59.999 instead of 03:05 (the serial day number converted without rounding; the import stores the instant as read).
${readNotes.length > 0 ? `\n${readNotes.map((n) => `- ${n}`).join('\n')}\n` : ''}
${
  BIG
    ? `**The largest file the upload admits** (${fmt(BIG_ROWS)} rows, inline strings, under the 20 MB upload and 200 MB unpacked limits), one round:

| library | ms | ÷ exceljs | peak RSS MB | ÷ exceljs | outcome |
|---|---|---|---|---|---|
${bigRows.trimEnd()}
`
    : ''
}
**Writing an order export of ${fmt(EXPORT_ROWS)} rows** (19 columns: text, dates, CNY amounts; a bold header) into a sink, p50 of ${ROUNDS} rounds:

| writer | ms | ÷ exceljs | first byte ms | peak RSS MB | ÷ exceljs | file MB | ÷ exceljs |
|---|---|---|---|---|---|---|---|
${exportRows.trimEnd()}

exceljs: its \`stream.xlsx.WorkbookWriter\`, the export before decision 0024; ours: the export's writer now. write-excel-file and
SheetJS have no row-by-row writer: the whole sheet is built in memory first (write-excel-file then zips it as a stream, SheetJS
into one buffer). Timed from after each library's load; the machine is shared, so read the ratios, and CPU time over wall time.
`;
    return [
      {
        title: 'xlsx libraries: exceljs beside the alternatives',
        body,
        summary: [
          {
            target: 'none stated (issue 26 §3: keep the better for size, speed and upkeep)',
            figure: `exceljs kept (decision 0116); ${install.onlyExceljs} of ${install.serverPackages} runtime packages are exceljs's; ${summaryParts.join('; ')}`,
            met: null,
          },
        ],
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
