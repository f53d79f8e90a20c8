import {
  sessionEndpoints as sessionApi,
  Status,
  trackingEndpoints as trackingApi,
  visitStatEndpoints as visitStatApi,
} from '@clearplay/contract';
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { AppError } from '../../lib/errors.ts';
import { toIso } from '../../lib/time.ts';
import { requireUser, type RouteDeps } from '../../http/route-context.ts';
import { databaseRateLimit } from '../rate-limit/rate-limit.service.ts';
import { recordEvent, recordPageView, visitOverview, type Visitor } from './tracking.service.ts';

const visitor = (request: FastifyRequest): Visitor => ({
  // The person at the screen: while a super admin views as a shop, the super admin (decision 0060).
  userId: request.user?.viewAs?.by.id ?? request.user?.id ?? null,
  ip: request.ip,
  userAgent: (request.headers['user-agent'] ?? '').slice(0, 512),
  host: request.headers.host,
});

/** Per client (IP) and route, across every process: at most this many tracking calls a minute (decisions 0045, 0074). */
export const TRACKING_RATE_MAX = 120;
export const TRACKING_RATE_WINDOW_MS = 60_000;
/** A page view's three fields fit in 2 KiB; an event's data is cut at 4 KB, so 8 KiB with its name. */
export const PAGE_VIEW_BODY_LIMIT = 2 * 1024;
export const EVENT_BODY_LIMIT = 8 * 1024;

const rateLimited = { rateLimit: { max: TRACKING_RATE_MAX, timeWindow: TRACKING_RATE_WINDOW_MS } };

/**
 * Spec §7 "Tracking": fire-and-forget records of route changes and client events. Anyone may
 * send them (public pages are visited too), but a bearer token, when sent, must be live:
 * a user whose session ended learns it at their next navigation. Small bodies, and a rate
 * limit per client on these two routes only (the limiter is registered in this plugin with
 * `global: false`, counting in the database: decision 0074); the answer past it is a 429
 * envelope in the caller's language.
 */
const trackingRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  await app.register(
    rateLimit,
    databaseRateLimit({ db, log: app.log }, (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new AppError(Status.TOO_MANY_REQUESTS, 'tracking.rateLimited', { seconds }, { retryAfterSeconds: seconds });
    }),
  );

  route(
    app,
    trackingApi.pageView,
    async (request) => {
      await recordPageView(db, request.body, visitor(request));
      return ok(null);
    },
    { bodyLimit: PAGE_VIEW_BODY_LIMIT, config: rateLimited },
  );

  route(
    app,
    trackingApi.event,
    async (request) => {
      await recordEvent(db, request.body, visitor(request));
      return ok(null);
    },
    { bodyLimit: EVENT_BODY_LIMIT, config: rateLimited },
  );

  route(app, visitStatApi.overview, async () => ok(await visitOverview(db)));

  route(app, sessionApi.check, async (request) => ok({ expiresAt: toIso(requireUser(request).sessionExpiresAt) }));
};

export default trackingRoutes;
