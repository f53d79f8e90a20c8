import { authEndpoints as api, loginStepEndpoints as steps, sessionEndpoints as session } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { logText } from '../../lib/log-text.ts';
import { type RouteDeps, requireUser } from '../../http/route-context.ts';
import * as auth from './auth.service.ts';

const authRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config }) => {
  route(app, api.login, async (request) => {
    const client = { ip: request.ip, userAgent: (request.headers['user-agent'] ?? '').slice(0, 512) };
    request.logContent = logText('log.text.auth.login', { username: request.body.username });
    return ok(await auth.login(db, config, request.body, client));
  });

  route(app, steps.enrol, async (request) => {
    const username = await auth.usernameOfTicket(db, request.body.ticket);
    request.logContent = logText('log.text.auth.enrolStarted', { username });
    return ok(await auth.enrolAtLogin(db, config, request.body.ticket));
  });

  route(app, steps.secondFactor, async (request) => {
    const client = { ip: request.ip, userAgent: (request.headers['user-agent'] ?? '').slice(0, 512) };
    const username = await auth.usernameOfTicket(db, request.body.ticket);
    request.logContent = logText(
      request.body.recoveryCode === undefined ? 'log.text.auth.secondStepCode' : 'log.text.auth.secondStepRecovery',
      { username },
    );
    return ok(await auth.finishSecondFactor(db, config, request.body, client));
  });

  route(app, session.logout, async (request) => {
    const user = requireUser(request);
    await auth.logout(db, user.sessionId);
    request.logContent = logText('log.text.user.loggedOut', { username: user.username, id: user.id });
    return ok(null);
  });

  route(app, session.info, async (request) => ok(auth.currentUser(requireUser(request))));
};

export default authRoutes;
