import { logEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { localeOf, type RouteDeps } from '../../http/route-context.ts';
import { getLog, listLogs } from './logs.service.ts';

/** Operation log: the list with its filters, and one entry in full. */
const logRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.list, async (request) => ok(await listLogs(db, request.query, localeOf(request))));

  route(app, api.detail, async (request) => ok(await getLog(db, request.query.id, localeOf(request))));
};

export default logRoutes;
