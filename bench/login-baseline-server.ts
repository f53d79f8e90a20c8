// The login baseline: a bare Fastify process whose login does exactly one argon2id verify (the
// product's parameters, lib/passwords.ts) and answers a fixed token, and whose info answers the
// envelope. No database, no session, no records: what any password login must at least spend.
import Fastify from 'fastify';
import { hashPassword, verifyPassword } from '../apps/server/src/lib/passwords.ts';
import { ADMIN_PASSWORD } from './lib.ts';

const passwordHash = await hashPassword(ADMIN_PASSWORD);
const app = Fastify({ logger: false });
app.post('/login', async (request, reply) => {
  const { password } = request.body as { password?: unknown };
  if (typeof password !== 'string' || !(await verifyPassword(passwordHash, password))) {
    return reply.code(400).send({ status: 400, msg: 'Incorrect username or password', data: null });
  }
  return { status: 200, msg: 'ok', data: { token: 'baseline' } };
});
app.get('/info', async () => ({ status: 200, msg: 'ok', data: null }));
await app.listen({ port: Number(process.env.PORT ?? 3998), host: '127.0.0.1' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
