import { userEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { operatorOf, requireUser, type RouteDeps } from '../../http/route-context.ts';
import * as users from './users.service.ts';

/** User management (spec §3 User, §4 subscription, §7). */
const userRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.list, async (request) => ok(await users.listUsers(db, request.query)));

  route(app, api.search, async (request) => ok(await users.searchUsers(db, request.query)));

  route(app, api.create, async (request) => {
    const item = await users.createUser(db, request.body, operatorOf(request));
    request.logContent = `user ${item.username} (#${item.id}): created with role ${item.roleName}`;
    return ok(item);
  });

  route(app, api.update, async (request) => {
    const { item, sessionsEnded } = await users.updateUser(db, request.body, operatorOf(request));
    const ended = sessionsEnded === null ? '' : `, sessions ended (${sessionsEnded})`;
    request.logContent = `user ${item.username} (#${item.id}): updated, role ${item.roleName}, status ${item.status}${ended}`;
    return ok(item);
  });

  route(app, api.resetPassword, async (request) => {
    const username = await users.resetPassword(db, request.body, operatorOf(request));
    request.logContent = `user ${username} (#${request.body.id}): password reset, sessions ended`;
    return ok(null);
  });

  route(app, api.resetSecondFactor, async (request) => {
    const operator = { ...operatorOf(request), roleName: requireUser(request).role.name };
    const username = await users.resetSecondFactor(db, request.body.id, operator);
    request.logContent = `user ${username} (#${request.body.id}): two-step verification reset by ${operator.username}, sessions ended`;
    return ok(null);
  });

  route(app, api.setStatus, async (request) => {
    const username = await users.setUserStatus(db, request.body, operatorOf(request));
    request.logContent = `user ${username} (#${request.body.id}): ${request.body.status === 1 ? 'enabled' : 'disabled'}`;
    return ok(null);
  });

  route(app, api.delete, async (request) => {
    const username = await users.deleteUser(db, request.query.id, operatorOf(request));
    request.logContent = `user ${username} (#${request.query.id}): deleted`;
    return ok(null);
  });

  route(app, api.setSubscription, async (request) => {
    const { item, record, username } = await users.setSubscription(db, request.body, operatorOf(request));
    request.logContent = `user ${username} (#${item.id}): ${record.action} ${record.type ?? ''} ${record.durationDays ?? ''} days, ${record.startDate} → ${record.endDate}`;
    return ok(item);
  });

  route(app, api.cancelSubscription, async (request) => {
    const username = await users.cancelSubscription(db, request.query.userId, operatorOf(request));
    request.logContent = `user ${username} (#${request.query.userId}): subscription cancelled`;
    return ok(null);
  });

  route(app, api.subscriptions, async (request) => ok(await users.listSubscriptions(db, request.query.userId)));
};

export default userRoutes;
