import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';

/** Starts the fixture, calls /throw/<kind> with a request id, resolves with its exit code and output. */
async function crash(kind: string): Promise<{ code: number | null; lines: Record<string, unknown>[] }> {
  const child = spawn(resolve(REPO_ROOT, 'node_modules/.bin/tsx'), [resolve(import.meta.dirname, '../test/crash-fixture.ts')], {
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  await expect.poll(() => /PORT=(\d+)/.test(out), { timeout: 20_000, interval: 50 }).toBe(true);
  const port = /PORT=(\d+)/.exec(out)![1];
  await fetch(`http://127.0.0.1:${port}/throw/${kind}`, { headers: { 'x-request-id': `crash-${kind}` } }).catch(() => null);
  const code = await exited;
  const lines = out
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, lines };
}

describe('an unexpected error', () => {
  it.each([
    ['exception', 'uncaughtException', 'boom in a timer'],
    ['rejection', 'unhandledRejection', 'boom in a promise'],
  ] as const)(
    '(%s) is logged with its request id and the process exits 1',
    async (kind, label, message) => {
      const { code, lines } = await crash(kind);
      expect(code).toBe(1);
      const fatal = lines.find((line) => line.level === 60);
      expect(fatal).toMatchObject({ reqId: `crash-${kind}`, msg: `${label}: the process stops`, err: { message } });
    },
    30_000,
  );

  it.each([
    ['untagged-exception', 'uncaughtException'],
    ['untagged-rejection', 'unhandledRejection'],
  ] as const)(
    '(%s, from work the request did not tag) is still logged, without a request id, and the process exits 1',
    async (kind, label) => {
      const { code, lines } = await crash(kind);
      expect(code).toBe(1);
      const fatal = lines.find((line) => line.level === 60);
      expect(fatal).toMatchObject({ msg: `${label}: the process stops` });
      expect(fatal).not.toHaveProperty('reqId');
    },
    30_000,
  );
});
