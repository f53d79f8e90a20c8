import { HealthData } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pingDb } from '../../db/index.ts';
import { responses } from '../../lib/envelope.ts';
import { t } from '../../lib/messages.ts';
import { localeOf, type RouteDeps } from '../../http/route-context.ts';

const healthRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: { tags: ['health'], summary: 'Database reachability; body status 503 when down', response: { ...responses(HealthData), 503: responses(HealthData)[200] } },
    },
    async (request, reply) => {
      if (await pingDb(db)) return { status: 200, msg: 'ok', data: { db: 'up' as const } };
      return reply.code(503).send({ status: 503, msg: t(localeOf(request), 'health.down'), data: { db: 'down' as const } });
    },
  );
};

export default healthRoutes;
