/**
 * Response security headers (helmet, built once) and CORS (@fastify/cors); decision 0029.
 *
 * Content-Security-Policy: scripts only from this origin, never inline (the web app has no
 * inline script, the prerendered login page included: apps/web/public/boot.js and
 * login-loader.js), nothing may frame the app, forms post only here. Styles allow
 * 'unsafe-inline': antd's CSS-in-JS writes <style> elements at run time and React writes style
 * attributes. HSTS and upgrade-insecure-requests only when TRUST_PROXY says a proxy (ending TLS)
 * stands in front; a plain-HTTP install on a LAN address would otherwise be locked out.
 *
 * CORS is closed unless CORS_ORIGINS lists origins: the web app is served by this server, so a
 * browser needs no cross-origin access. Registered before the access-rule guard (auth.ts):
 * the CORS preflight route answers in its hook, before any rule applies.
 */
import cors from '@fastify/cors';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { DOCS_PREFIX } from './auth.ts';

/** Where the browser talks to the cloud storage provider (upload hosts and host discovery). */
const QINIU_CONNECT = ['https://*.qiniup.com', 'http://*.qiniup.com', 'https://*.qbox.me', 'https://*.qiniuapi.com'];

export function contentSecurityPolicy(config: Pick<AppConfig, 'trustProxy' | 'uploads'>): Record<string, string[]> {
  const uploads = config.uploads;
  const cloud = uploads.provider === 'qiniu';
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...(uploads.provider === 'qiniu' ? [new URL(uploads.publicBaseUrl).origin] : [])],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(cloud ? QINIU_CONNECT : [])],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    ...(config.trustProxy ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

async function securityPlugin(app: FastifyInstance, { config }: { config: AppConfig }): Promise<void> {
  await app.register(cors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'Content-Disposition'],
    maxAge: 600,
  });
  // helmet's middleware is built once here, with its header values computed once; each request
  // then only sets them. (@fastify/helmet rebuilt the whole middleware on every request, about a
  // fifth of an authenticated call's server time; decision 0039.)
  const options = {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    strictTransportSecurity: config.trustProxy ? { maxAge: 180 * 24 * 3600, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' as const },
  };
  const headers = helmet(options);
  // The API docs (Swagger UI) bring their own policy with their scripts' hashes (plugins/swagger.ts).
  const docsHeaders = helmet({ ...options, contentSecurityPolicy: false });
  const fail = (error?: unknown) => {
    if (error) throw error;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.routeOptions.url;
    const docs = url !== undefined && (url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`));
    (docs ? docsHeaders : headers)(request.raw, reply.raw, fail);
    done();
  });
}

export default fp(securityPlugin, { name: 'security' });
