import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-context.ts';
import { lazyRequestLogger } from './request-log.ts';

/** A Fastify app logging JSON lines at `level` into an array, with the app's request ids and lazy request loggers. */
async function appLoggingAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ logger: { level, stream }, genReqId: requestIdOf, requestIdHeader: false, childLoggerFactory: lazyRequestLogger });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/noisy', async (request) => {
    request.log.debug('not at this level');
    request.log.warn({ detail: 7 }, 'something to see');
    request.log.child({ step: 'inner' }).error('from a child');
    return { ok: true };
  });
  app.get('/route-level', { logLevel: 'error' }, async (request) => {
    request.log.warn('below the route level');
    return { ok: true };
  });
  await app.ready();
  return { app, lines };
}

describe('the lazy request logger', () => {
  it('writes every line of a request with its id, at the levels that are enabled, and nothing else', async () => {
    const { app, lines } = await appLoggingAt('warn');
    await app.inject({ url: '/noisy', headers: { 'x-request-id': 'lazy-1' } });
    expect(lines.map((l) => [l.reqId, l.msg, l.level])).toEqual([
      ['lazy-1', 'something to see', 40],
      ['lazy-1', 'from a child', 50],
    ]);
    expect(lines[0]).toMatchObject({ detail: 7 });
    expect(lines[1]).toMatchObject({ step: 'inner' });
    await app.close();
  });

  it("keeps Fastify's own request lines at info, each with the request id", async () => {
    const { app, lines } = await appLoggingAt('info');
    await app.inject({ url: '/quiet', headers: { 'x-request-id': 'lazy-2' } });
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['lazy-2', 'incoming request'],
      ['lazy-2', 'request completed'],
    ]);
    await app.close();
  });

  it("honours a route's own log level", async () => {
    const { app, lines } = await appLoggingAt('info');
    await app.inject({ url: '/route-level', headers: { 'x-request-id': 'lazy-3' } });
    expect(lines).toEqual([]);
    await app.close();
  });
});
