import { ledgerEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { operatorOf, localeOf, type RouteDeps } from '../../http/route-context.ts';
import * as ledger from './ledger.service.ts';
import { logText } from '../../lib/log-text.ts';

/** Shop balances (docs/product.md "Money"): recharges recorded by staff and each shop's ledger. */
const ledgerRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.recharge, async (request) => {
    const { entry, balance, username } = await ledger.recharge(db, request.body, operatorOf(request));
    request.logContent = logText('log.text.user.recharge', { username, id: entry.userId, amountFen: entry.amount, balanceFen: balance });
    return ok({ entry, balance });
  });

  route(app, api.ledger, async (request) => ok(await ledger.ledgerPage(db, request.query, localeOf(request))));
};

export default ledgerRoutes;
