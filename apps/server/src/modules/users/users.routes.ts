import {
  CancelSubscriptionQuery,
  Empty,
  IdQuery,
  Page,
  ResetPasswordBody,
  ResetSecondFactorBody,
  SetSubscriptionBody,
  SetUserStatusBody,
  SubscriptionListQuery,
  SubscriptionRecordList,
  UserCreateBody,
  UserItem,
  UserListQuery,
  UserOption,
  UserSearchQuery,
  UserUpdateBody,
  USER_SEARCH_PERMISSIONS,
} from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { operatorOf, requireUser, type RouteDeps } from '../../http/route-context.ts';
import * as users from './users.service.ts';
import { logText } from '../../lib/log-text.ts';

const security = [{ bearer: [] }];
const tags = ['user'];

/** User management (spec §3 User, §4 subscription, §7). */
const userRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/admin/user/list',
    {
      config: { auth: 'user', permission: 'user:view' },
      schema: {
        tags,
        summary: 'Users, newest first, with filters',
        security,
        querystring: UserListQuery,
        response: responses(Page(UserItem)),
      },
    },
    async (request) => ok(await users.listUsers(db, request.query)),
  );

  app.get(
    '/admin/user/search',
    {
      config: { auth: 'user', permission: USER_SEARCH_PERMISSIONS },
      schema: {
        tags,
        summary: 'Light look-up by username or nickname prefix (pickers)',
        security,
        querystring: UserSearchQuery,
        response: responses(Type.Array(UserOption)),
      },
    },
    async (request) => ok(await users.searchUsers(db, request.query)),
  );

  app.post(
    '/admin/user/create',
    {
      config: { auth: 'user', permission: 'user:create', log: { module: 'user', action: 'create' } },
      schema: { tags, summary: 'Create a user', security, body: UserCreateBody, response: responses(UserItem) },
    },
    async (request) => {
      const item = await users.createUser(db, request.body, operatorOf(request));
      request.logContent = logText('log.text.user.created', { username: item.username, id: item.id, role: item.roleName });
      return ok(item);
    },
  );

  app.post(
    '/admin/user/update',
    {
      config: { auth: 'user', permission: 'user:update', log: { module: 'user', action: 'update' } },
      schema: {
        tags,
        summary: "Update a user (not the username or password); a role change ends the user's sessions",
        security,
        body: UserUpdateBody,
        response: responses(UserItem),
      },
    },
    async (request) => {
      const { item, sessionsEnded } = await users.updateUser(db, request.body, operatorOf(request));
      const ended = sessionsEnded !== null && { key: 'log.text.part.sessionsEnded' as const, params: { count: sessionsEnded } };
      request.logContent = logText(
        'log.text.user.updated',
        { username: item.username, id: item.id, role: item.roleName, status: item.status },
        ended,
      );
      return ok(item);
    },
  );

  app.post(
    '/admin/user/resetPassword',
    {
      config: { auth: 'user', permission: 'user:password:reset', log: { module: 'user', action: 'resetPassword' } },
      schema: {
        tags,
        summary: "Set a new password; ends the user's sessions",
        security,
        body: ResetPasswordBody,
        response: responses(Empty),
      },
    },
    async (request) => {
      const username = await users.resetPassword(db, request.body, operatorOf(request));
      request.logContent = logText('log.text.user.passwordReset', { username, id: request.body.id });
      return ok(null);
    },
  );

  app.post(
    '/admin/user/resetSecondFactor',
    {
      config: { auth: 'user', permission: 'user:password:reset', log: { module: 'user', action: 'resetSecondFactor' } },
      schema: {
        tags,
        summary: "Super admin: remove a user's authenticator app and recovery codes; ends the user's sessions",
        security,
        body: ResetSecondFactorBody,
        response: responses(Empty),
      },
    },
    async (request) => {
      const operator = { ...operatorOf(request), roleName: requireUser(request).role.name };
      const username = await users.resetSecondFactor(db, request.body.id, operator);
      request.logContent = logText('log.text.user.secondFactorReset', { username, id: request.body.id, operator: operator.username });
      return ok(null);
    },
  );

  app.post(
    '/admin/user/setUserStatus',
    {
      config: { auth: 'user', permission: 'user:status', log: { module: 'user', action: 'setStatus' } },
      schema: {
        tags,
        summary: "Enable or disable; disabling ends the user's sessions",
        security,
        body: SetUserStatusBody,
        response: responses(Empty),
      },
    },
    async (request) => {
      const username = await users.setUserStatus(db, request.body, operatorOf(request));
      request.logContent = logText(request.body.status === 1 ? 'log.text.user.enabled' : 'log.text.user.disabled', {
        username,
        id: request.body.id,
      });
      return ok(null);
    },
  );

  app.get(
    '/admin/user/delete',
    {
      config: { auth: 'user', permission: 'user:delete', log: { module: 'user', action: 'delete' } },
      schema: { tags, summary: 'Delete a user who owns no records', security, querystring: IdQuery, response: responses(Empty) },
    },
    async (request) => {
      const username = await users.deleteUser(db, request.query.id, operatorOf(request));
      request.logContent = logText('log.text.user.deleted', { username, id: request.query.id });
      return ok(null);
    },
  );

  app.post(
    '/admin/setSubscription',
    {
      config: { auth: 'user', permission: 'user:subscription', log: { module: 'user', action: 'setSubscription' } },
      schema: {
        tags,
        summary: 'Subscribe or renew (monthly 30, yearly 365, custom days)',
        security,
        body: SetSubscriptionBody,
        response: responses(UserItem),
      },
    },
    async (request) => {
      const { item, record, username } = await users.setSubscription(db, request.body, operatorOf(request));
      request.logContent = users.subscriptionLogText(username, item.id, record);
      return ok(item);
    },
  );

  app.get(
    '/admin/cancelSubscription',
    {
      config: { auth: 'user', permission: 'user:subscription', log: { module: 'user', action: 'cancelSubscription' } },
      schema: {
        tags,
        summary: 'End the running subscription now',
        security,
        querystring: CancelSubscriptionQuery,
        response: responses(Empty),
      },
    },
    async (request) => {
      const username = await users.cancelSubscription(db, request.query.userId, operatorOf(request));
      request.logContent = logText('log.text.user.subscriptionCancelled', { username, id: request.query.userId });
      return ok(null);
    },
  );

  app.get(
    '/admin/user/subscriptions',
    {
      config: { auth: 'user', permission: 'user:view' },
      schema: {
        tags,
        summary: "A user's subscription records, newest first",
        security,
        querystring: SubscriptionListQuery,
        response: responses(SubscriptionRecordList),
      },
    },
    async (request) => ok(await users.listSubscriptions(db, request.query.userId)),
  );
};

export default userRoutes;
