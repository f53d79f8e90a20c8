import { Empty, EventBody, PageViewBody, SessionData } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ok, responses } from '../../lib/envelope.ts';
import { toIso } from '../../lib/time.ts';
import { requireUser, type RouteDeps } from '../../http/route-context.ts';
import { recordEvent, recordPageView, type Visitor } from './tracking.service.ts';

const visitor = (request: FastifyRequest): Visitor => ({
  userId: request.user?.id ?? null,
  ip: request.ip,
  userAgent: (request.headers['user-agent'] ?? '').slice(0, 512),
});

/**
 * Spec §7 "Tracking": fire-and-forget records of route changes and client events. Anyone may
 * send them (public pages are visited too), but a bearer token, when sent, must be live:
 * a user whose session ended learns it at their next navigation.
 */
const trackingRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.post(
    '/visit-stats/create',
    {
      config: { auth: 'optional', log: false },
      schema: { tags: ['tracking'], summary: 'Record a page view', body: PageViewBody, response: responses(Empty) },
    },
    async (request) => {
      await recordPageView(db, request.body, visitor(request));
      return ok(null);
    },
  );

  app.post(
    '/analytics/event',
    {
      config: { auth: 'optional', log: false },
      schema: { tags: ['tracking'], summary: 'Record a client event', body: EventBody, response: responses(Empty) },
    },
    async (request) => {
      await recordEvent(db, request.body, visitor(request));
      return ok(null);
    },
  );

  app.get(
    '/admin/user/session',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['auth'],
        summary: 'Check the session: answers when it ends (an authenticated call that changes nothing)',
        security: [{ bearer: [] }],
        response: responses(SessionData),
      },
    },
    async (request) => ok({ expiresAt: toIso(requireUser(request).sessionExpiresAt) }),
  );
};

export default trackingRoutes;
