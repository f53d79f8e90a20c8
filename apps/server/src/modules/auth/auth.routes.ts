import {
  CurrentUser,
  Empty,
  LoginBody,
  LoginData,
  LoginEnrolBody,
  SecondFactorBody,
  SecondFactorLoginData,
  TotpEnrolment,
} from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { type RouteDeps, requireUser } from '../../http/route-context.ts';
import * as auth from './auth.service.ts';
import { logText } from '../../lib/log-text.ts';

const authRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  app.post(
    '/admin/user/login',
    {
      config: { auth: 'public', log: { module: 'auth', action: 'login', operatorFromBody: 'username' } },
      schema: {
        tags: ['auth'],
        summary: 'Log in; answers a bearer token, or (two-step verification) the step that comes next and its ticket',
        body: LoginBody,
        response: responses(LoginData),
      },
    },
    async (request) => {
      const client = { ip: request.ip, userAgent: (request.headers['user-agent'] ?? '').slice(0, 512) };
      request.logContent = logText('log.text.auth.login', { username: request.body.username });
      return ok(await auth.login(db, config, request.body, client));
    },
  );

  app.post(
    '/admin/user/login/enrol',
    {
      config: { auth: 'public', log: { module: 'auth', action: 'secondFactorEnrol' } },
      schema: {
        tags: ['auth'],
        summary: 'Sign-in of an account that must set up an authenticator app: its secret and QR code (ticket of step enrol)',
        body: LoginEnrolBody,
        response: responses(TotpEnrolment),
      },
    },
    async (request) => {
      const username = await auth.usernameOfTicket(db, request.body.ticket);
      request.logContent = logText('log.text.auth.enrolStarted', { username });
      return ok(await auth.enrolAtLogin(db, config, request.body.ticket));
    },
  );

  app.post(
    '/admin/user/login/second-factor',
    {
      config: { auth: 'public', log: { module: 'auth', action: 'login' } },
      schema: {
        tags: ['auth'],
        summary: "Finish a sign-in with the authenticator's code or a recovery code; answers a bearer token",
        body: SecondFactorBody,
        response: responses(SecondFactorLoginData),
      },
    },
    async (request) => {
      const client = { ip: request.ip, userAgent: (request.headers['user-agent'] ?? '').slice(0, 512) };
      const username = await auth.usernameOfTicket(db, request.body.ticket);
      request.logContent = logText(
        request.body.recoveryCode === undefined ? 'log.text.auth.secondStepCode' : 'log.text.auth.secondStepRecovery',
        { username },
      );
      return ok(await auth.finishSecondFactor(db, config, request.body, client));
    },
  );

  app.get(
    '/admin/user/logout',
    {
      config: { auth: 'user', log: { module: 'auth', action: 'logout' } },
      schema: { tags: ['auth'], summary: 'End this session', security: [{ bearer: [] }], response: responses(Empty) },
    },
    async (request) => {
      const user = requireUser(request);
      await auth.logout(db, user.sessionId);
      request.logContent = logText('log.text.user.loggedOut', { username: user.username, id: user.id });
      return ok(null);
    },
  );

  app.get(
    '/admin/user/info',
    {
      config: { auth: 'user' },
      schema: { tags: ['auth'], summary: 'The signed-in user', security: [{ bearer: [] }], response: responses(CurrentUser) },
    },
    async (request) => ok(auth.currentUser(requireUser(request))),
  );
};

export default authRoutes;
