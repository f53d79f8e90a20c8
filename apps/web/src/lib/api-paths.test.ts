import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as constants from '@clearplay/contract/constants';
import { describe, expect, it } from 'vitest';

/**
 * The web calls only declared endpoints (decision 0096). A call names its declaration
 * (`api.call(dictEndpoints.typeList, …)`, `api.callIfChanged`, `api.download` for a file);
 * no source calls the API by a raw path (`api.get('/…')`, `getIfChanged`, `fetchFile`,
 * `request`): the client keeps those for its own tests and generic components' tests only.
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

/** A raw-path call and its first argument (a path, or anything else). */
const RAW_CALL = /\b(?:api\s*\.\s*(?:get|post|put|delete)|getIfChanged|fetchFile|request)\s*(?:<[^()]*?>)?\s*\([^,)]*/g;

function rawCalls(): { file: string; text: string }[] {
  return sources(src)
    .filter((file) => relative(src, file) !== CLIENT)
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(RAW_CALL)].map((match) => ({ file: relative(src, file), text: match[0] })));
}

/** A call by declaration: `api.call(group.name`, its group's exported name and the call's. */
const DECLARED_CALL = /\bapi\s*\.\s*(?:call|callIfChanged|download)\s*\(\s*([A-Za-z_$][\w$]*)\s*\.\s*([A-Za-z_$][\w$]*)/g;

function declaredCalls(): { file: string; group: string; name: string }[] {
  return sources(src).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(DECLARED_CALL)].map((match) => ({
      file: relative(src, file),
      group: match[1] ?? '',
      name: match[2] ?? '',
    })),
  );
}

const declarations = new Set(constants.endpointList().map(({ endpoint }) => endpoint));
const groups = constants as unknown as Record<string, Record<string, constants.Endpoint> | undefined>;

describe('the paths the web calls', () => {
  const raw = rawCalls();
  const byDeclaration = declaredCalls();

  it('finds the calls it checks', () => {
    expect(byDeclaration.length).toBeGreaterThan(50);
  });

  it('calls the API by declaration only, never by a raw path', () => {
    expect(raw.map((call) => `${call.file}: ${call.text}`)).toEqual([]);
  });

  it('names a declared endpoint in every call (a group of the contract and one of its calls)', () => {
    const unknown = byDeclaration.filter((call) => {
      const declared = groups[call.group]?.[call.name];
      return declared === undefined || !declarations.has(declared);
    });
    expect(unknown.map((call) => `${call.file}: ${call.group}.${call.name}`)).toEqual([]);
  });
});
