/**
 * A process for lib/process.test.ts: Fastify with the app's request ids and request context,
 * and the app's handler of unexpected errors. GET /throw/:kind fails outside any handler's
 * reach (a timer callback's exception, or a rejected promise nobody awaits).
 */
import Fastify from 'fastify';
import { exitOnUnexpectedError } from '../lib/process.ts';
import { requestIdOf, runInRequest } from '../lib/request-context.ts';

const app = Fastify({ logger: true, genReqId: requestIdOf, requestIdHeader: false });
exitOnUnexpectedError(() => app.log);
app.addHook('onRequest', (request, _reply, done) => runInRequest(request.id, done));
app.get<{ Params: { kind: string } }>('/throw/:kind', async (request) => {
  if (request.params.kind === 'exception') {
    setTimeout(() => {
      throw new Error('boom in a timer');
    }, 10);
  } else {
    void Promise.reject(new Error('boom in a promise'));
  }
  return { ok: true };
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`PORT=${(app.server.address() as { port: number }).port}`);
