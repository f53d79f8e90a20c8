import { workplaceEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { operatorOf, type RouteDeps } from '../../http/route-context.ts';
import { withSignedImages } from '../orders/orders.service.ts';
import { createEvidenceUrls } from '../uploads/uploads.service.ts';
import * as workplace from './workplace.service.ts';

/** The workplace (docs/product.md "The workplace") and the order analysis (the data-analysis page). */
const workplaceRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config }) => {
  // The latest and pending orders carry evidence: signed for a short while, as the order list's (decision 0082).
  const urls = await createEvidenceUrls(config);
  route(app, api.workplace, async (request) => {
    const data = await workplace.workplace(db, operatorOf(request));
    const signed = <T extends (typeof data.latestOrders)[number]>(item: T): T => withSignedImages(item, urls, request.host);
    return ok({ ...data, latestOrders: data.latestOrders.map(signed), pending: { ...data.pending, list: data.pending.list.map(signed) } });
  });

  route(app, api.orderAnalysis, async (request) => ok(await workplace.orderAnalysis(db, request.query)));
};

export default workplaceRoutes;
