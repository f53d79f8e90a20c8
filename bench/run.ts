// npm run bench [-- name ...]: runs bench/*.bench.ts and writes docs/benchmarks.md.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { machine, repoRoot, type Section } from './lib.ts';

const only = process.argv.slice(2);
const files = readdirSync(join(repoRoot, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.includes(f.replace('.bench.ts', '')))
  .sort();

const out = join(repoRoot, 'docs', 'benchmarks.md');
// Keep sections from earlier runs that this run did not redo, so a partial run updates in place.
const previous = new Map<string, string>();
if (existsSync(out)) {
  const text = readFileSync(out, 'utf8');
  for (const part of text.split(/^## /m).slice(1)) {
    const title = part.split('\n', 1)[0]!.trim();
    previous.set(title, `## ${part.trimEnd()}\n`);
  }
}

const sections = new Map(previous);
for (const file of files) {
  const name = file.replace('.bench.ts', '');
  console.log(`── bench ${name}`);
  const mod = (await import(join(repoRoot, 'bench', file))) as { run: () => Promise<Section[]> };
  for (const s of await mod.run()) {
    const stamped = `## ${s.title}\n\n_Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}._\n\n${s.body.trim()}\n`;
    sections.set(s.title, stamped);
    console.log(stamped);
  }
}

const header = `# Benchmarks

Written by \`npm run bench\` (\`bench/\`). Every figure stands beside a baseline measured in the
same run on the same machine; these machines are noisy, so read the ratios, not the times.
Benchmarks are not tests: tests assert behaviour, these measure it.

`;
writeFileSync(out, header + [...sections.values()].join('\n'));
console.log(`wrote ${out}`);
