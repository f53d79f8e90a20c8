import { accountEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { AppError } from '../../lib/errors.ts';
import { ok } from '../../lib/envelope.ts';
import { logText } from '../../lib/log-text.ts';
import { localeOf, requireUser, type RouteDeps } from '../../http/route-context.ts';
import { createBlobStore, publicFilesBase } from '../uploads/uploads.service.ts';
import * as account from './account.service.ts';
import * as secondFactor from '../auth/second-factor.service.ts';

/**
 * The user changing their own account. While a super admin views as a shop account (decision
 * 0060), that account's profile, password and sessions are not theirs to change: refused.
 */
function accountOwner(request: FastifyRequest) {
  const user = requireUser(request);
  if (user.viewAs !== undefined && user.viewAs.userId !== null) throw new AppError(403, 'viewAs.ownAccountOnly');
  return user;
}

/** The signed-in user's own account (user centre, user settings): any signed-in user, on themselves only. */
const accountRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config }) => {
  const avatars: account.AvatarStore = { filesBase: publicFilesBase(config.uploads), blobs: await createBlobStore(config) };

  route(app, api.profile, async (request) => ok(await account.profile(db, requireUser(request).id)));

  route(app, api.updateProfile, async (request) => {
    const user = accountOwner(request);
    const item = await account.updateProfile(db, user.id, request.body, avatars);
    request.logContent = logText('log.text.account.profile', { username: user.username, id: user.id });
    return ok(item);
  });

  route(app, api.avatar, async (request) => {
    const user = accountOwner(request);
    const item = await account.setAvatar(db, avatars, user.id, request.body.avatar);
    request.logContent = logText(item.avatar === '' ? 'log.text.account.avatarRemoved' : 'log.text.account.avatarSet', {
      username: user.username,
      id: user.id,
    });
    return ok(item);
  });

  route(app, api.password, async (request) => {
    const user = accountOwner(request);
    const sessionsEnded = await account.changePassword(db, user.id, user.sessionId, request.body);
    request.logContent = logText('log.text.account.password', { username: user.username, id: user.id, count: sessionsEnded });
    return ok({ sessionsEnded });
  });

  route(app, api.logins, async (request) =>
    ok(await account.loginHistory(db, requireUser(request).id, request.query.page, request.query.pageSize)),
  );

  route(app, api.sessions, async (request) => {
    const user = requireUser(request);
    return ok(await account.sessions(db, user.id, user.sessionId));
  });

  route(app, api.endOtherSessions, async (request) => {
    const user = accountOwner(request);
    const ended = await account.endOtherSessions(db, user.id, user.sessionId);
    request.logContent = logText('log.text.account.endSessions', { username: user.username, id: user.id, count: ended });
    return ok({ ended });
  });

  route(app, api.ledger, async (request) =>
    ok(await account.ownLedger(db, requireUser(request).id, request.query.page ?? 1, request.query.pageSize ?? 10, localeOf(request))),
  );

  route(app, api.subscriptions, async (request) => ok(await account.ownSubscriptions(db, requireUser(request).id)));

  // ── two-step verification (decision 0091) ──

  route(app, api.secondFactor, async (request) => ok(await secondFactor.stateOf(db, config, requireUser(request).id)));

  route(app, api.secondFactorEnrol, async (request) => {
    const user = accountOwner(request);
    request.logContent = logText('log.text.account.secondFactorEnrol', { username: user.username, id: user.id });
    return ok(await secondFactor.startEnrolment(db, config, user.id));
  });

  route(app, api.secondFactorConfirm, async (request) => {
    const user = accountOwner(request);
    const recoveryCodes = await secondFactor.confirmEnrolment(db, config, user.id, request.body.code);
    request.logContent = logText('log.text.account.secondFactorOn', { username: user.username, id: user.id });
    return ok({ recoveryCodes });
  });

  route(app, api.secondFactorDisable, async (request) => {
    const user = accountOwner(request);
    await secondFactor.disable(db, config, user.id, request.body);
    request.logContent = logText('log.text.account.secondFactorOff', { username: user.username, id: user.id });
    return ok(null);
  });
};

export default accountRoutes;
