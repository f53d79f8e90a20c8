// The baselines: a bare Fastify handler answering the envelope, no database, no auth; and
// (GET /login-form) the cheapest possible login page, for the web bench's Lighthouse figure; and
// (/bare-antd/, with BARE_ANTD_DIR) a bare antd app, for the sign-in bench's baseline.
import Fastify from 'fastify';

/** A login form in plain HTML and inline CSS, no script: what no framework can beat. */
const LOGIN_FORM = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="description" content="Baseline login form"><title>ClearPlay</title>
<style>
body{margin:0;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI','PingFang SC','Noto Sans CJK SC',Arial,sans-serif;background:#fff}
main{max-width:360px;margin:0 auto;padding:48px 16px}
h1{font-size:28px;margin:0 0 24px}
input{display:block;width:100%;box-sizing:border-box;height:40px;margin-bottom:20px;padding:0 11px;border:1px solid #d9d9d9;border-radius:8px;font-size:16px}
button{width:100%;height:40px;border:0;border-radius:8px;background:#165dff;color:#fff;font-size:16px}
</style>
</head>
<body><main><h1>登录 ClearPlay</h1><form method="post">
<input name="username" placeholder="用户名" aria-label="用户名" autocomplete="username">
<input name="password" type="password" placeholder="密码" aria-label="密码" autocomplete="current-password">
<button type="submit">登录</button></form></main></body>
</html>`;

const app = Fastify({ logger: false });
// The built bare antd app (bench/bare-antd, built by bench/login-workplace.bench.ts), when given.
if (process.env.BARE_ANTD_DIR) {
  const { default: fastifyStatic } = await import('@fastify/static');
  await app.register(fastifyStatic, { root: process.env.BARE_ANTD_DIR, prefix: '/bare-antd/' });
}
app.get('/noop', async () => ({ status: 200, msg: 'ok', data: null }));
app.post('/noop', async () => ({ status: 200, msg: 'ok', data: null }));
app.get('/login-form', async (_request, reply) => reply.type('text/html; charset=utf-8').send(LOGIN_FORM));
await app.listen({ port: Number(process.env.PORT ?? 3999), host: '127.0.0.1' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
