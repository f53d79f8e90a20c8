import { LedgerPage, LedgerQuery, RechargeBody, RechargeResult } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { operatorOf, localeOf, type RouteDeps } from '../../http/route-context.ts';
import { formatFen } from '../orders/orders.service.ts';
import * as ledger from './ledger.service.ts';

const security = [{ bearer: [] }];
const tags = ['ledger'];

/** Shop balances (PRODUCT.md "Money"): recharges recorded by staff and each shop's ledger. */
const ledgerRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.post(
    '/admin/user/recharge',
    {
      config: { auth: 'user', permission: 'user:recharge', log: { module: 'user', action: 'recharge' } },
      schema: { tags, summary: 'Record money received from a shop', security, body: RechargeBody, response: responses(RechargeResult) },
    },
    async (request) => {
      const { entry, balance, username } = await ledger.recharge(db, request.body, operatorOf(request));
      request.logContent = `user ${username} (#${entry.userId}): recharge ${formatFen(entry.amount)}, balance ${formatFen(balance)}`;
      return ok({ entry, balance });
    },
  );

  app.get(
    '/admin/user/ledger',
    {
      config: { auth: 'user', permission: 'user:ledger' },
      schema: {
        tags,
        summary: "A shop's ledger, newest first, with its balance",
        security,
        querystring: LedgerQuery,
        response: responses(LedgerPage),
      },
    },
    async (request) => ok(await ledger.ledgerPage(db, request.query, localeOf(request))),
  );
};

export default ledgerRoutes;
