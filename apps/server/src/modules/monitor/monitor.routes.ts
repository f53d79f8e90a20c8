import { monitorEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { localeOf, type RouteDeps } from '../../http/route-context.ts';
import { monitorData } from './monitor.service.ts';

/** The monitor screen's one call: read-only, refreshed every 30 s by the screen, so not logged. */
const monitorRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.overview, async (request) => ok(await monitorData(db, undefined, localeOf(request))));
};

export default monitorRoutes;
