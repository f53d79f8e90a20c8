import { ledgerEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { operatorOf, localeOf, type RouteDeps } from '../../http/route-context.ts';
import * as ledger from './ledger.service.ts';
import { logText } from '../../lib/log-text.ts';
import { claimOf, markReplay, once } from '../idempotency/idempotency.service.ts';

/** Shop balances (docs/product.md "Money"): recharges recorded by staff and each shop's ledger. */
const ledgerRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  // With an Idempotency-Key, the same recharge sent again is answered again, not credited twice (decision 0109).
  route(app, api.recharge, async (request, reply) => {
    const op = operatorOf(request);
    const claim = claimOf(request, op.id, 'ledger.recharge');
    const { data, replayed } = await once(db, claim, async (trx) => {
      const { entry, balance, username } = await ledger.rechargeIn(trx, request.body, op);
      return { entry, balance, username };
    });
    const { entry, balance, username } = data;
    if (!markReplay(request, reply, claim, replayed))
      request.logContent = logText('log.text.user.recharge', { username, id: entry.userId, amountFen: entry.amount, balanceFen: balance });
    return ok({ entry, balance });
  });

  route(app, api.ledger, async (request) => ok(await ledger.ledgerPage(db, request.query, localeOf(request))));
};

export default ledgerRoutes;
