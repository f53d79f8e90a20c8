import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { endpointList, UNDECLARED_ROUTES } from '@clearplay/contract/constants';
import { describe, expect, it } from 'vitest';

/**
 * The web calls only declared endpoints (decision 0096). A call names its declaration
 * (`api.call(dictEndpoints.typeList, …)`); the raw-path calls still left (`api.get('/…')`,
 * `getIfChanged`, `api.download`) may only name a route on the contract's shrinking list of
 * routes not yet declared, and never a declared one.
 */
const src = join(import.meta.dirname, '..');
const CLIENT = 'lib/api-client.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const METHOD: Record<string, string> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  delete: 'DELETE',
  download: 'GET',
  getIfChanged: 'GET',
  fetchFile: 'GET',
};
/** A raw-path call, its generic type, and its first argument (a string or template literal, else up to a comma or parenthesis). */
const RAW_CALL =
  /\b(?:api\s*\.\s*(get|post|put|delete|download)|(getIfChanged|fetchFile|request))\s*(?:<[^()]*?>)?\s*\(\s*('[^']*'|"[^"]*"|`[^`]*`|[^,)]*)/g;

interface RawCall {
  file: string;
  method: string;
  /** The path with each `${…}` read as a `:param` segment; null when not a literal. */
  path: string | null;
  text: string;
}

function rawCalls(): RawCall[] {
  const calls: RawCall[] = [];
  for (const file of sources(src)) {
    const name = relative(src, file);
    if (name === CLIENT) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(RAW_CALL)) {
      const verb = match[1] ?? match[2] ?? '';
      const argument = (match[3] ?? '').trim();
      const literal = /^(['"`])(\/[^'"`]*)\1$/.exec(argument);
      calls.push({
        file: name,
        method: METHOD[verb] ?? verb,
        path: literal && verb !== 'request' ? (literal[2] ?? '').replace(/\$\{[^}]*\}/g, ':param') : null,
        text: match[0],
      });
    }
  }
  return calls;
}

/** Same path, a `:name` segment on either side standing for any one segment. */
const samePath = (a: string, b: string): boolean => {
  const [x, y] = [a.split('/'), b.split('/')];
  return x.length === y.length && x.every((segment, i) => segment === y[i] || segment.startsWith(':') || y[i]?.startsWith(':'));
};
const matches = (lines: readonly string[], method: string, path: string) =>
  lines.some((line) => {
    const [m, p] = line.split(' ');
    return m === method && samePath(p ?? '', path);
  });

const declared = endpointList().map(({ endpoint }) => `${endpoint.method} ${endpoint.path}`);

describe('the paths the web calls', () => {
  const calls = rawCalls();

  it('finds the raw-path calls it checks', () => {
    expect(calls.length).toBeGreaterThan(0);
  });

  it('names every raw path as a literal, so it can be checked', () => {
    expect(calls.filter((call) => call.path === null).map((call) => `${call.file}: ${call.text}`)).toEqual([]);
  });

  it('calls no declared endpoint by a raw path (api.call names the declaration)', () => {
    const raw = calls.filter((call) => call.path !== null && matches(declared, call.method, call.path));
    expect(raw.map((call) => `${call.file}: ${call.method} ${call.path}`)).toEqual([]);
  });

  it('calls no path that is neither declared nor listed as not yet declared', () => {
    const unknown = calls.filter(
      (call) => call.path !== null && !matches(declared, call.method, call.path) && !matches(UNDECLARED_ROUTES, call.method, call.path),
    );
    expect(unknown.map((call) => `${call.file}: ${call.method} ${call.path}`)).toEqual([]);
  });
});
