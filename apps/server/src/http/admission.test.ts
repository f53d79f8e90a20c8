/**
 * A busy server still takes new connections (decision 0099): the app listening on
 * a real port on the demo business, a number of keep-alive clients each asking for the next
 * 200-row order-list page as soon as the last is answered (on SQLite, whose queries run on the
 * server's thread, each costs it milliseconds of CPU), then as many new connections opened at
 * once, one call each. Measured in calls, not in ms: how many calls the busy clients had answered
 * meanwhile. Node ≥ 20 accepts one connection per turn of the event loop; without the slices a
 * turn serves every busy connection that has a call waiting, so each newcomer waited for a turn's
 * worth of answers more than the one before it (without the slices the 20th waited for 194 and
 * 203 answers in two runs; with 100 of each it is thousands, the timeouts of decision 0099). With them
 * it waits for about the calls queued when it arrived (40 in the same runs).
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWithDemo } from '../demo/index.ts';
import { createTestContext, loginAs, type TestContext } from '../test/context.ts';

const BUSY = 20;
const NEW = 20;

let ctx: TestContext;
let base: string;
let auth: string;

beforeAll(async () => {
  ctx = await createTestContext({ ownDataDir: true });
  await seedWithDemo(ctx.db, { initAdminPassword: 'Admin12345', demo: true, dataDir: ctx.dataDir });
  auth = `Bearer ${(await loginAs(ctx, 'admin')).token}`;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(() => ctx?.destroy());

const get = (agent: Agent) =>
  new Promise<number>((resolve, reject) => {
    const req = request(`${base}/api/admin/order/list?page=1&pageSize=200`, { agent, headers: { authorization: auth } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end();
  });

describe('admission in turn', () => {
  it('accepts and answers connections opened while every connection it has keeps it busy', { timeout: 60_000 }, async () => {
    const busyAgent = new Agent({ keepAlive: true, maxSockets: BUSY });
    let answered = 0;
    let stop = false;
    const busy = Array.from({ length: BUSY }, async () => {
      while (!stop) {
        expect(await get(busyAgent)).toBe(200);
        answered++;
      }
    });
    // Every busy connection accepted and at work.
    while (answered < BUSY * 3) await new Promise((resolve) => setTimeout(resolve, 20));

    const newAgent = new Agent({ keepAlive: false, maxSockets: NEW });
    const before = answered;
    const waited = await Promise.all(
      Array.from({ length: NEW }, async () => {
        expect(await get(newAgent)).toBe(200);
        return answered - before;
      }),
    );
    stop = true;
    await Promise.all(busy);
    busyAgent.destroy();
    newAgent.destroy();

    // The last newcomer waited for about the calls queued ahead of it (BUSY + NEW), not for a
    // turn of all busy connections per newcomer ahead of it (BUSY × NEW).
    expect(Math.max(...waited)).toBeLessThan(3 * (BUSY + NEW));
  });
});
