import {
  AccountAvatarBody,
  AccountPageQuery,
  AccountProfile,
  AccountUpdateBody,
  ActiveSession,
  EndedSessions,
  LedgerPage,
  LoginHistoryPage,
  PasswordChangeBody,
  PasswordChangeResult,
  SecondFactorConfirmBody,
  SecondFactorDisableBody,
  SecondFactorRecoveryCodes,
  SecondFactorState,
  SubscriptionRecord,
  TotpEnrolment,
  Empty,
} from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { Type } from 'typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { localeOf, requireUser, type RouteDeps } from '../../http/route-context.ts';
import { createBlobStore, publicFilesBase } from '../uploads/uploads.service.ts';
import * as account from './account.service.ts';
import * as secondFactor from '../auth/second-factor.service.ts';
import { logText } from '../../lib/log-text.ts';

const security = [{ bearer: [] }];

/**
 * The user changing their own account. While a super admin views as a shop account (decision
 * 0060), that account's profile, password and sessions are not theirs to change: refused.
 */
function accountOwner(request: FastifyRequest) {
  const user = requireUser(request);
  if (user.viewAs !== undefined && user.viewAs.userId !== null) throw new AppError(403, 'viewAs.ownAccountOnly');
  return user;
}
const tags = ['account'];

/** The signed-in user's own account (user centre, user settings): any signed-in user, on themselves only. */
const accountRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const avatars: account.AvatarStore = { filesBase: publicFilesBase(config.uploads), blobs: await createBlobStore(config) };

  app.get(
    '/admin/account/profile',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My profile (and, for a shop, its subscription and balance)',
        security,
        response: responses(AccountProfile),
      },
    },
    async (request) => ok(await account.profile(db, requireUser(request).id)),
  );

  app.post(
    '/admin/account/profile',
    {
      config: { auth: 'user', log: { module: 'account', action: 'update' } },
      schema: {
        tags,
        summary: 'Edit my nickname, chat ID, phone, avatar, language',
        security,
        body: AccountUpdateBody,
        response: responses(AccountProfile),
      },
    },
    async (request) => {
      const user = accountOwner(request);
      const item = await account.updateProfile(db, user.id, request.body, avatars);
      request.logContent = logText('log.text.account.profile', { username: user.username, id: user.id });
      return ok(item);
    },
  );

  app.post(
    '/admin/account/avatar',
    {
      config: { auth: 'user', log: { module: 'account', action: 'avatar' } },
      schema: {
        tags,
        summary: "Set my avatar: the URL of my own stored `avatar` upload, or '' to remove it",
        security,
        body: AccountAvatarBody,
        response: responses(AccountProfile),
      },
    },
    async (request) => {
      const user = accountOwner(request);
      const item = await account.setAvatar(db, avatars, user.id, request.body.avatar);
      request.logContent = logText(item.avatar === '' ? 'log.text.account.avatarRemoved' : 'log.text.account.avatarSet', {
        username: user.username,
        id: user.id,
      });
      return ok(item);
    },
  );

  app.post(
    '/admin/account/password',
    {
      config: { auth: 'user', log: { module: 'account', action: 'password' } },
      schema: {
        tags,
        summary: 'Change my password (the current one required); my other sessions end, this one stays',
        security,
        body: PasswordChangeBody,
        response: responses(PasswordChangeResult),
      },
    },
    async (request) => {
      const user = accountOwner(request);
      const sessionsEnded = await account.changePassword(db, user.id, user.sessionId, request.body);
      request.logContent = logText('log.text.account.password', { username: user.username, id: user.id, count: sessionsEnded });
      return ok({ sessionsEnded });
    },
  );

  app.get(
    '/admin/account/logins',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My sign-ins, newest first',
        security,
        querystring: AccountPageQuery,
        response: responses(LoginHistoryPage),
      },
    },
    async (request) => ok(await account.loginHistory(db, requireUser(request).id, request.query.page, request.query.pageSize)),
  );

  app.get(
    '/admin/account/sessions',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'My live sessions (this one marked current)', security, response: responses(Type.Array(ActiveSession)) },
    },
    async (request) => {
      const user = requireUser(request);
      return ok(await account.sessions(db, user.id, user.sessionId));
    },
  );

  app.post(
    '/admin/account/sessions/end-others',
    {
      config: { auth: 'user', log: { module: 'account', action: 'endSessions' } },
      schema: { tags, summary: 'Sign out my other sessions', security, response: responses(EndedSessions) },
    },
    async (request) => {
      const user = accountOwner(request);
      const ended = await account.endOtherSessions(db, user.id, user.sessionId);
      request.logContent = logText('log.text.account.endSessions', { username: user.username, id: user.id, count: ended });
      return ok({ ended });
    },
  );

  app.get(
    '/admin/account/ledger',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "A shop's own ledger and balance (read-only)",
        security,
        querystring: AccountPageQuery,
        response: responses(LedgerPage),
      },
    },
    async (request) =>
      ok(await account.ownLedger(db, requireUser(request).id, request.query.page ?? 1, request.query.pageSize ?? 10, localeOf(request))),
  );

  app.get(
    '/admin/account/subscriptions',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'My subscription records', security, response: responses(Type.Array(SubscriptionRecord)) },
    },
    async (request) => ok(await account.ownSubscriptions(db, requireUser(request).id)),
  );

  // ── two-step verification (decision 0091) ──

  app.get(
    '/admin/account/second-factor',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My two-step verification: on or off, required, exempt (demo)',
        security,
        response: responses(SecondFactorState),
      },
    },
    async (request) => ok(await secondFactor.stateOf(db, config, requireUser(request).id)),
  );

  app.post(
    '/admin/account/second-factor/enrol',
    {
      config: { auth: 'user', log: { module: 'account', action: 'secondFactorEnrol' } },
      schema: {
        tags,
        summary: 'Start setting up an authenticator app: its secret and QR code (confirmed by the next call)',
        security,
        response: responses(TotpEnrolment),
      },
    },
    async (request) => {
      const user = accountOwner(request);
      request.logContent = logText('log.text.account.secondFactorEnrol', { username: user.username, id: user.id });
      return ok(await secondFactor.startEnrolment(db, config, user.id));
    },
  );

  app.post(
    '/admin/account/second-factor/confirm',
    {
      config: { auth: 'user', log: { module: 'account', action: 'secondFactorConfirm' } },
      schema: {
        tags,
        summary: "Turn two-step verification on with the app's first code; answers the ten recovery codes, shown once",
        security,
        body: SecondFactorConfirmBody,
        response: responses(SecondFactorRecoveryCodes),
      },
    },
    async (request) => {
      const user = accountOwner(request);
      const recoveryCodes = await secondFactor.confirmEnrolment(db, config, user.id, request.body.code);
      request.logContent = logText('log.text.account.secondFactorOn', { username: user.username, id: user.id });
      return ok({ recoveryCodes });
    },
  );

  app.post(
    '/admin/account/second-factor/disable',
    {
      config: { auth: 'user', log: { module: 'account', action: 'secondFactorDisable' } },
      schema: {
        tags,
        summary: 'Turn two-step verification off with a current code or a recovery code (where it is not required)',
        security,
        body: SecondFactorDisableBody,
        response: responses(Empty),
      },
    },
    async (request) => {
      const user = accountOwner(request);
      await secondFactor.disable(db, config, user.id, request.body);
      request.logContent = logText('log.text.account.secondFactorOff', { username: user.username, id: user.id });
      return ok(null);
    },
  );
};

export default accountRoutes;
