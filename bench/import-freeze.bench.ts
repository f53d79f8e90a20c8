// The other users during a large order import (decision 0093): the health check and the order
// list, each called over and over by a client of its own, while a 40,000-row csv is imported,
// beside the same calls with no import, in the same run on the same server. Real HTTP on
// loopback, the server run as `npm start` runs it (the built bundle) with the demo business, on
// SQLite and then on a throwaway PostgreSQL database (BENCH_PG_URL). The target: during the
// import, each call's p99 at most 3 times its p99 without one, and never above 250 ms.
import type { CompiledQuery } from 'kysely';
import { fmt, pct, ratio, startApp, superAdminBearer, type Section } from './lib.ts';
import { onEachTarget, type Target } from './targets.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 40_000);
/** How long the calls are sampled with no import. */
const QUIET_MS = 8000;
/** Each client's pause between one answer and its next call. */
const GAP_MS = 20;
const HEADERS = ['Target WeChat ID', 'Target name', 'Game', 'MAC address', 'Install time', 'Result', 'Client shop', "Target's shop"];

function importCsv(shop: string, rows: number): Buffer {
  const lines = [HEADERS.join(',')];
  for (let i = 0; i < rows; i++) {
    const hex = i.toString(16).padStart(6, '0');
    lines.push([`freeze_${i}`, `Target ${i}`, 'CS2', `ffeedd${hex}`, '2026-01-02 03:04', i % 4, shop, 'Bench shop'].join(','));
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `url` again and again until `stop()`, each after the previous answer and a short gap; the times (ms). */
async function sample(url: string, headers: Record<string, string>, stop: () => boolean): Promise<{ times: number[]; errors: number }> {
  const times: number[] = [];
  let errors = 0;
  while (!stop()) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200) errors++;
    await sleep(GAP_MS);
  }
  return { times, errors };
}

interface Calls {
  health: { times: number[]; errors: number };
  list: { times: number[]; errors: number };
}

async function sampleBoth(base: string, headers: Record<string, string>, stop: () => boolean): Promise<Calls> {
  const [health, list] = await Promise.all([
    sample(`${base}/api/health`, {}, stop),
    sample(`${base}/api/admin/order/list?page=1&pageSize=20`, headers, stop),
  ]);
  return { health, list };
}

interface Figures {
  target: Target['name'];
  quiet: Calls;
  during: Calls;
  importMs: number;
  imported: number;
}

async function measure(target: Target): Promise<Figures> {
  const app = await startApp(target.env, { built: true });
  try {
    const headers = { authorization: await superAdminBearer(app) };
    const shops = (await target.raw.run({
      sql: "select u.username from users u join roles r on r.id = u.role_id where r.name = 'shop' and u.status = 1 order by u.id limit 1",
      parameters: [],
    } as unknown as CompiledQuery)) as { username: string }[];
    const shop = shops[0]?.username;
    if (shop === undefined) throw new Error('the demo business has no enabled shop');
    const file = importCsv(shop, ROWS);

    // Warm-up, then the calls with no import.
    let until = Date.now() + 2000;
    await sampleBoth(app.url, headers, () => Date.now() > until);
    until = Date.now() + QUIET_MS;
    const quiet = await sampleBoth(app.url, headers, () => Date.now() > until);

    // The same calls while the file is imported.
    let done = false;
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), 'freeze.csv');
    const started = performance.now();
    const importing = fetch(`${app.url}/api/admin/order/import`, { method: 'POST', headers, body: form })
      .then(async (res) => (await res.json()) as { status: number; msg: string; data: { imported: number } })
      .finally(() => (done = true));
    const during = await sampleBoth(app.url, headers, () => done);
    const answer = await importing;
    const importMs = performance.now() - started;
    if (answer.status !== 200) throw new Error(`the import failed: ${answer.msg}`);
    return { target: target.name, quiet, during, importMs, imported: answer.data.imported };
  } finally {
    await app.stop();
    await target.raw.close();
    await target.drop();
  }
}

const p99 = (times: readonly number[]) =>
  pct(
    [...times].sort((a, b) => a - b),
    99,
  );

function rows(f: Figures): string[] {
  return (['health', 'list'] as const).map((call) => {
    const quiet = p99(f.quiet[call].times);
    const during = p99(f.during[call].times);
    const meets = during <= 3 * quiet && during <= 250 ? 'yes' : 'no';
    const name = call === 'health' ? '`/api/health`' : 'order list (20 rows)';
    return `| ${f.target} | ${name} | ${fmt(quiet, 1)} | ${fmt(during, 1)} | **${ratio(during, quiet)}** | ${fmt(Math.max(...f.during[call].times), 1)} | ${f.during[call].times.length} | ${f.quiet[call].errors + f.during[call].errors} | ${meets} |`;
  });
}

export async function run(): Promise<Section[]> {
  const figures = await onEachTarget('import-freeze', measure);
  const imports = figures.map((f) => `${f.target} ${fmt(f.imported)} orders in ${fmt(f.importMs / 1000, 1)} s`).join(', ');
  const body = `
Two clients call the server over and over, each after the previous answer and ${GAP_MS} ms: one \`GET /api/health\`,
one the order list (first page, 20 rows, as the super admin). First for ${QUIET_MS / 1000} s with no import (after a
2 s warm-up), then while a ${fmt(ROWS)}-row csv is imported (all or nothing) by the same user. The server is the
built bundle with the demo business; the import runs on its own worker thread. Imports: ${imports}. Times in ms; the ratio is the p99 during the import over the p99 without one. Target:
ratio ≤ 3 and p99 during the import ≤ 250 ms.

| Database | Call | p99 without import | p99 during import | ratio | max during import | calls during | errors | meets target |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${figures.flatMap(rows).join('\n')}
`;
  return [{ title: 'Health check and order list during a large import', body }];
}
