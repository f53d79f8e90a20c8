import { MonitorData } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { localeOf, type RouteDeps } from '../../http/route-context.ts';
import { monitorData } from './monitor.service.ts';

/** The monitor screen's one call (issue 13): read-only, refreshed every 30 s by the screen, so not logged. */
const monitorRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/admin/monitor',
    {
      config: { auth: 'user', permission: 'workplace:view', log: false },
      schema: {
        tags: ['monitor'],
        summary:
          "Today's live figures (Asia/Shanghai): orders per hour, count and amount, staff online in the last 15 minutes, latest imports",
        security: [{ bearer: [] }],
        response: responses(MonitorData),
      },
    },
    async (request) => ok(await monitorData(db, undefined, localeOf(request))),
  );
};

export default monitorRoutes;
