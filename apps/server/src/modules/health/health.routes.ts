import { HealthData, ReadyData } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pingDb } from '../../db/index.ts';
import { migrationsPending } from '../../db/migrate.ts';
import { responses } from '../../lib/envelope.ts';
import { t } from '../../lib/messages.ts';
import { localeOf, type RouteDeps } from '../../http/route-context.ts';

/**
 * Liveness and readiness, for a process supervisor or a load balancer:
 * - GET /api/health answers while the process runs, without touching the database (restart
 *   the process when it fails);
 * - GET /api/ready answers 200 once the database answers and every migration has run, 503
 *   with the envelope otherwise (send it no traffic meanwhile).
 */
const healthRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: { tags: ['health'], summary: 'Liveness: the process is running', response: responses(HealthData) },
    },
    async () => ({ status: 200, msg: 'ok', data: { uptimeSeconds: Math.round(process.uptime()) } }),
  );

  app.get(
    '/ready',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Readiness: database reachable and migrations done; body status 503 when not',
        response: { ...responses(ReadyData), 503: responses(ReadyData)[200] },
      },
    },
    async (request, reply) => {
      if (!(await pingDb(db))) {
        return reply
          .code(503)
          .send({ status: 503, msg: t(localeOf(request), 'health.down'), data: { db: 'down' as const, migrations: 'unknown' as const } });
      }
      let pending: boolean;
      try {
        pending = await migrationsPending(db);
      } catch {
        pending = true;
      }
      if (pending) {
        return reply.code(503).send({
          status: 503,
          msg: t(localeOf(request), 'health.migrationsPending'),
          data: { db: 'up' as const, migrations: 'pending' as const },
        });
      }
      return { status: 200, msg: 'ok', data: { db: 'up' as const, migrations: 'done' as const } };
    },
  );
};

export default healthRoutes;
