import { userEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { logText } from '../../lib/log-text.ts';
import { operatorOf, requireUser, type RouteDeps } from '../../http/route-context.ts';
import * as users from './users.service.ts';
import { claimOf, markReplay, once } from '../idempotency/idempotency.service.ts';

/** User management: accounts, their roles, prices and subscriptions (docs/product.md "People and what each may do" and "Money"). */
const userRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.list, async (request) => ok(await users.listUsers(db, request.query)));

  route(app, api.search, async (request) => ok(await users.searchUsers(db, request.query)));

  route(app, api.create, async (request) => {
    const item = await users.createUser(db, request.body, operatorOf(request));
    request.logContent = logText('log.text.user.created', { username: item.username, id: item.id, role: item.roleName });
    return ok(item);
  });

  route(app, api.update, async (request) => {
    const { item, sessionsEnded } = await users.updateUser(db, request.body, operatorOf(request));
    const ended = sessionsEnded !== null && { key: 'log.text.part.sessionsEnded' as const, params: { count: sessionsEnded } };
    request.logContent = logText(
      'log.text.user.updated',
      { username: item.username, id: item.id, role: item.roleName, status: item.status },
      ended,
    );
    return ok(item);
  });

  route(app, api.resetPassword, async (request) => {
    const username = await users.resetPassword(db, request.body, operatorOf(request));
    request.logContent = logText('log.text.user.passwordReset', { username, id: request.body.id });
    return ok(null);
  });

  route(app, api.resetSecondFactor, async (request) => {
    const operator = { ...operatorOf(request), roleName: requireUser(request).role.name };
    const username = await users.resetSecondFactor(db, request.body.id, operator);
    request.logContent = logText('log.text.user.secondFactorReset', { username, id: request.body.id, operator: operator.username });
    return ok(null);
  });

  route(app, api.setStatus, async (request) => {
    const username = await users.setUserStatus(db, request.body, operatorOf(request));
    request.logContent = logText(request.body.status === 1 ? 'log.text.user.enabled' : 'log.text.user.disabled', {
      username,
      id: request.body.id,
    });
    return ok(null);
  });

  route(app, api.delete, async (request) => {
    const username = await users.deleteUser(db, request.query.id, operatorOf(request));
    request.logContent = logText('log.text.user.deleted', { username, id: request.query.id });
    return ok(null);
  });

  // With an Idempotency-Key, a renewal sent again is answered again, not extended twice (decision 0109).
  route(app, api.setSubscription, async (request, reply) => {
    const op = operatorOf(request);
    const claim = claimOf(request, op.id, 'user.subscription');
    const { data, replayed } = await once(db, claim, (trx) => users.subscribe(trx, request.body, op));
    const { item, record, username } = data;
    if (!markReplay(request, reply, claim, replayed)) request.logContent = users.subscriptionLogText(username, item.id, record);
    return ok(item);
  });

  route(app, api.cancelSubscription, async (request) => {
    const username = await users.cancelSubscription(db, request.query.userId, operatorOf(request));
    request.logContent = logText('log.text.user.subscriptionCancelled', { username, id: request.query.userId });
    return ok(null);
  });

  route(app, api.subscriptions, async (request) => ok(await users.listSubscriptions(db, request.query.userId)));
};

export default userRoutes;
