import { monitorEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import type { RouteDeps } from '../../http/route-context.ts';
import { monitorData } from './monitor.service.ts';

/** The monitor screen's one call (issue 13): read-only, refreshed every 30 s by the screen, so not logged. */
const monitorRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.overview, async () => ok(await monitorData(db)));
};

export default monitorRoutes;
