/**
 * Response security headers (helmet's, computed once) and CORS (@fastify/cors); decisions 0029, 0058.
 *
 * Content-Security-Policy: scripts only from this origin, never inline (the web app has no
 * inline script, the prerendered login page included: apps/web/public/boot.js and
 * login-loader.js), nothing may frame the app, forms post only here. Styles allow
 * 'unsafe-inline': antd's CSS-in-JS writes <style> elements at run time and React writes style
 * attributes. HSTS and upgrade-insecure-requests only when TRUST_PROXY says a proxy (ending TLS)
 * stands in front; a plain-HTTP install on a LAN address would otherwise be locked out.
 *
 * CORS is closed unless CORS_ORIGINS lists origins: the web app is served by this server, so a
 * browser needs no cross-origin access. Registered (only then) before the access-rule guard
 * (auth.ts): the CORS preflight route answers in its hook, before any rule applies.
 */
import cors from '@fastify/cors';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, onRequestHookHandler, RouteOptions } from 'fastify';
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
    ...(config.trustProxy > 0 ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * The security headers every answer carries, computed once at start: helmet's own middleware
 * (so every header and value is helmet's, decision 0029) is run once against a recorder and
 * its headers kept, since none of ours depends on the request. `app.ts` sets them together
 * with the request id in one hook (decision 0058).
 */
export function securityHeaders(config: Pick<AppConfig, 'trustProxy' | 'uploads'>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    strictTransportSecurity: config.trustProxy > 0 ? { maxAge: 180 * 24 * 3600, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // helmet's middleware is synchronous for static options; a later version that is not must not go unnoticed.
  if (!finished) throw new Error('helmet did not finish synchronously: the security headers cannot be computed once');
  return Object.freeze(headers);
}

const isDocs = (url: string) => url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`);

async function securityPlugin(app: FastifyInstance, { config }: { config: AppConfig }): Promise<void> {
  // Closed CORS needs no plugin at all: without it no answer carries an Access-Control header
  // and a preflight finds no route (404). With origins listed, @fastify/cors answers them.
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language', 'X-Request-Id'],
      exposedHeaders: ['X-Request-Id', 'Content-Disposition'],
      maxAge: 600,
    });
  }
  // The API docs (Swagger UI) bring their own policy with their scripts' hashes (plugins/swagger.ts):
  // their routes drop the app's, on their own hook, so no other request pays for the check.
  const dropPolicy: onRequestHookHandler = (_request, reply, done) => {
    void reply.removeHeader('content-security-policy');
    done();
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    if (isDocs(route.url)) route.onRequest = [...hooksOf(route.onRequest), dropPolicy];
  });
}

const hooksOf = <H>(hooks: H | H[] | undefined): H[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

export default fp(securityPlugin, { name: 'security' });
