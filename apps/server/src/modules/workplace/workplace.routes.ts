import { workplaceEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { operatorOf, type RouteDeps } from '../../http/route-context.ts';
import * as workplace from './workplace.service.ts';

/** The workplace (spec §2, §7) and the order analysis (the data-analysis page). */
const workplaceRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.workplace, async (request) => ok(await workplace.workplace(db, operatorOf(request))));

  route(app, api.orderAnalysis, async (request) => ok(await workplace.orderAnalysis(db, request.query)));
};

export default workplaceRoutes;
