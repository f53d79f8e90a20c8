import { orderEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../http/endpoint.ts';
import { operatorOf, type RouteDeps } from '../../../http/route-context.ts';
import { ok } from '../../../lib/envelope.ts';
import { orderHistory } from './orders.history.ts';

/** Target history (decision 0059). */
const orderHistoryRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.history, async (request) => ok(await orderHistory(db, request.query, operatorOf(request))));
};

export default orderHistoryRoutes;
