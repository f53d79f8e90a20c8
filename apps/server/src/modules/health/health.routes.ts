import { healthEndpoints as api, ReadyData } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { pingDb } from '../../db/index.ts';
import { migrationsPending } from '../../db/migrate.ts';
import { responses } from '../../lib/envelope.ts';
import { t } from '../../lib/messages.ts';
import { route } from '../../http/endpoint.ts';
import { localeOf, type RouteDeps } from '../../http/route-context.ts';

/**
 * Liveness and readiness, for a process supervisor or a load balancer:
 * - GET /api/health answers while the process runs, without touching the database (restart
 *   the process when it fails);
 * - GET /api/ready answers 200 once the database answers and every migration has run, 503
 *   with the envelope otherwise (send it no traffic meanwhile).
 */
const healthRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.health, async () => ({ status: 200, msg: 'ok', data: { uptimeSeconds: Math.round(process.uptime()) } }));

  route(
    app,
    api.ready,
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
    { response: { 503: responses(ReadyData)[200] } },
  );
};

export default healthRoutes;
