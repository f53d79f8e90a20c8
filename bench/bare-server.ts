// The baseline: a bare Fastify handler answering the envelope, no database, no auth.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/noop', async () => ({ status: 200, msg: 'ok', data: null }));
app.post('/noop', async () => ({ status: 200, msg: 'ok', data: null }));
await app.listen({ port: Number(process.env.PORT ?? 3999), host: '127.0.0.1' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
