#!/usr/bin/env node
// Writes docs/decisions/README.md: one line per decision record, its number, title and status
// (the first sentence under its "## Status"), superseded ones marked. `--check` only compares
// and fails when the index is out of date (run by `npm run lint`).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', 'docs', 'decisions');
const records = readdirSync(dir)
  .filter((f) => /^\d{4}-.*\.md$/.test(f))
  .sort();

const rows = records.map((file) => {
  const text = readFileSync(join(dir, file), 'utf8');
  const title = (text.match(/^#\s+(.*)$/m)?.[1] ?? file).replace(/^\d{4}\s*[—–-]\s*/, '').trim();
  const status =
    text
      .split(/^## Status\s*$/m)[1]
      ?.trim()
      .split('\n')[0] ?? '';
  const first = status.match(/^.*?\.(?=\s|$)/)?.[0] ?? status;
  const superseded = /^superseded/i.test(status);
  const label = superseded ? `**${first}**` : first || 'no status';
  return `| [${file.slice(0, 4)}](${file}) | ${superseded ? `~~${title}~~` : title} | ${label.replace(/\|/g, '\\|')} |`;
});

const index = `# Decision records

Why the project is built the way it is: one record per decision, numbered in the order taken.
A record that a later one replaces is marked superseded and points to it. This index is written by
\`node scripts/decisions-index.mjs\` (\`npm run lint\` fails when it is out of date).

| # | decision | status |
|---|---|---|
${rows.join('\n')}
`;

const target = join(dir, 'README.md');
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing: out of date
  }
  if (current !== index) {
    console.error('docs/decisions/README.md is out of date: run `node scripts/decisions-index.mjs`');
    process.exit(1);
  }
} else {
  writeFileSync(target, index);
  console.log(`docs/decisions/README.md: ${rows.length} records`);
}
