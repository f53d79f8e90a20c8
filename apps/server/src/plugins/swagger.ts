import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DOCS_PREFIX } from './auth.ts';

/** OpenAPI document built from every route's contract schemas; the UI is at /api/docs. */
async function swaggerPlugin(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'ClearPlay API',
        description:
          'Every answer is an envelope {status, msg, data}; body status 200 means ok. ' +
          'Session errors: 401 (no or unknown token), 50008 (malformed), 50012 (ended), 50014 (expired).',
        version: '0.1.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'cp_… token from /api/admin/user/login' } },
      },
    },
  });
  // Its own Content-Security-Policy (with its inline scripts' hashes), minus the upgrade to
  // HTTPS that would break a plain-HTTP install, and never framed.
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: true,
    transformStaticCSP: (header) =>
      header.replace(/\s*upgrade-insecure-requests;/, '').replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
  });
}

export default fp(swaggerPlugin, { name: 'swagger' });
