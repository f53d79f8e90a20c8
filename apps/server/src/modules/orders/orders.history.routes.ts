import { OrderHistory, OrderHistoryQuery } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { operatorOf, type RouteDeps } from '../../http/route-context.ts';
import { ok, responses } from '../../lib/envelope.ts';
import { orderHistory } from './orders.history.ts';

/** Target history (issue 17, decision 0059). */
const orderHistoryRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/admin/order/history',
    {
      config: { auth: 'user', permission: 'order:view' },
      schema: {
        tags: ['order'],
        summary: "A target's earlier records by chat ID and the same machine's records under other chat IDs, as the caller may see them",
        security: [{ bearer: [] }],
        querystring: OrderHistoryQuery,
        response: responses(OrderHistory),
      },
    },
    async (request) => ok(await orderHistory(db, request.query, operatorOf(request))),
  );
};

export default orderHistoryRoutes;
