/**
 * A process for lib/process.test.ts: Fastify with the app's request ids and the app's handler
 * of unexpected errors. GET /throw/:kind fails outside any handler's reach: a timer callback's
 * exception, or a rejected promise nobody awaits, each tagged with its request as the app tags
 * the work a request leaves running (lib/request-context.ts); `untagged-*` fail the same way
 * without the tag.
 */
import Fastify from 'fastify';
import { exitOnUnexpectedError } from '../lib/process.ts';
import { detach, inRequest, requestIdOf } from '../lib/request-context.ts';

const app = Fastify({ logger: true, genReqId: requestIdOf, requestIdHeader: false });
exitOnUnexpectedError(() => app.log);
app.get<{ Params: { kind: string } }>('/throw/:kind', async (request) => {
  const kind = request.params.kind;
  const tagged = !kind.startsWith('untagged-');
  if (kind.endsWith('exception')) {
    const fail = () => {
      throw new Error('boom in a timer');
    };
    setTimeout(tagged ? inRequest(request.id, fail) : fail, 10);
  } else {
    const work = Promise.reject(new Error('boom in a promise'));
    if (tagged) detach(request.id, work);
    else void work;
  }
  return { ok: true };
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`PORT=${(app.server.address() as { port: number }).port}`);
