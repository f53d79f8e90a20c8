import { OrderAnalysis, OrderAnalysisQuery, WorkplaceData } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { operatorOf, type RouteDeps } from '../../http/route-context.ts';
import * as workplace from './workplace.service.ts';

const security = [{ bearer: [] }];
const tags = ['workplace'];

/** The workplace (spec §2, §7) and the order analysis (the data-analysis page). */
const workplaceRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/admin/workplace',
    {
      config: { auth: 'user', permission: 'workplace:view' },
      schema: { tags, summary: 'Every figure of the workplace in one answer', security, response: responses(WorkplaceData) },
    },
    async (request) => ok(await workplace.workplace(db, operatorOf(request))),
  );

  app.get(
    '/admin/analysis/orders',
    {
      config: { auth: 'user', permission: 'workplace:view' },
      schema: {
        tags,
        summary: 'Orders by game, result and shop over business days, in day / week / month buckets',
        security,
        querystring: OrderAnalysisQuery,
        response: responses(OrderAnalysis),
      },
    },
    async (request) => ok(await workplace.orderAnalysis(db, request.query)),
  );
};

export default workplaceRoutes;
