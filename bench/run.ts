// npm run bench [-- name ...]: runs bench/*.bench.ts and writes docs/benchmarks.md.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { machine, repoRoot, type Section, type SummaryRow } from './lib.ts';

const only = process.argv.slice(2);
const files = readdirSync(join(repoRoot, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.includes(f.replace('.bench.ts', '')))
  .sort();

const out = join(repoRoot, 'docs', 'benchmarks.md');
const SUMMARY = 'Summary';
/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const anchorOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
const summaryRow = (title: string, row: SummaryRow) =>
  `| [${title}](#${anchorOf(title)}) | ${row.target} | ${row.figure} | ${row.met === null ? '—' : row.met ? 'yes' : '**no**'} |`;

// Keep sections from earlier runs that this run did not redo, so a partial run updates in place;
// and the summary's rows of those sections.
const previous = new Map<string, string>();
const previousRows = new Map<string, string[]>();
if (existsSync(out)) {
  const text = readFileSync(out, 'utf8');
  for (const part of text.split(/^## /m).slice(1)) {
    const title = part.split('\n', 1)[0]!.trim();
    if (title !== SUMMARY) {
      previous.set(title, `## ${part.trimEnd()}\n`);
      continue;
    }
    for (const line of part.split('\n')) {
      const match = /^\| \[(.+?)\]\(#[^)]*\) \|/.exec(line);
      if (match) previousRows.set(match[1]!, [...(previousRows.get(match[1]!) ?? []), line]);
    }
  }
}

const sections = new Map(previous);
const rows = new Map(previousRows);
for (const file of files) {
  const name = file.replace('.bench.ts', '');
  console.log(`── bench ${name}`);
  const mod = (await import(join(repoRoot, 'bench', file))) as { run: () => Promise<Section[]> };
  for (const s of await mod.run()) {
    const stamped = `## ${s.title}\n\n_Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}._\n\n${s.body.trim()}\n`;
    if (s.replaces !== undefined) {
      sections.delete(s.replaces);
      rows.delete(s.replaces);
    }
    sections.set(s.title, stamped);
    if (s.summary !== undefined)
      rows.set(
        s.title,
        s.summary.map((row) => summaryRow(s.title, row)),
      );
    console.log(stamped);
  }
}

const header = `# Benchmarks

Written by \`npm run bench\` (\`bench/\`). Every figure stands beside a baseline measured in the
same run on the same machine; these machines are noisy, so read the ratios, not the times.
Benchmarks are not tests: tests assert behaviour, these measure it.

`;
// The summary: one row per target of each section, in the sections' order (written by the
// benches that give one, \`Section.summary\`; kept from the last run for the others).
const summary = `## ${SUMMARY}

| Area | Target | Latest figure | Met? |
|---|---|---|---|
${[...sections.keys()].flatMap((title) => rows.get(title) ?? []).join('\n')}

Figures come from the sections below, each measured against its baseline in the same run; the machines are noisy, so read the ratios.
`;
writeFileSync(out, header + [summary, ...sections.values()].join('\n'));
console.log(`wrote ${out}`);
