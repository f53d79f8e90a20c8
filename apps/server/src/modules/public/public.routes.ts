import { PUBLIC_RATE_LIMITS, publicEndpoints as api } from '@clearplay/contract';
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { AppError } from '../../lib/errors.ts';
import { ok } from '../../lib/envelope.ts';
import { localeOf, type RouteDeps } from '../../http/route-context.ts';
import { databaseRateLimit } from '../rate-limit/rate-limit.service.ts';
import * as pub from './public.service.ts';

const MINUTE = 60_000;

/** How long a browser (and, for the shared ones, a proxy) may keep an answer; set on success only. */
const cache = (reply: FastifyReply, value: string) => void reply.header('cache-control', value);
const SHARED = 'public, max-age=300';

/**
 * The public pages' calls (decisions 0048–0051): anyone may call them, each with a
 * per-client limit (by IP, after TRUST_PROXY) through @fastify/rate-limit registered inside this
 * plugin only, so no other route is counted, counted in the database so every process shares it
 * (decision 0074). Over the limit: a 429 envelope in the caller's language with Retry-After,
 * through the app's error handler.
 */
const publicRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  await app.register(
    rateLimit,
    databaseRateLimit({ db, log: app.log }, (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new AppError(429, 'public.rateLimited', { seconds }, { retryAfterSeconds: seconds });
    }),
  );
  const limit = (max: number) => ({ max, timeWindow: MINUTE });

  route(
    app,
    api.lookup,
    async (request, reply) => {
      const list = await pub.lookup(db, request.query.chatId, localeOf(request));
      cache(reply, 'private, max-age=60');
      void reply.header('vary', 'accept-language');
      return ok({ list });
    },
    { config: { rateLimit: limit(PUBLIC_RATE_LIMITS.lookup) } },
  );

  route(
    app,
    api.verify,
    async (request, reply) => {
      const item = await pub.certificate(db, request.params.code, localeOf(request));
      cache(reply, SHARED);
      void reply.header('vary', 'accept-language');
      return ok(item);
    },
    { config: { rateLimit: limit(PUBLIC_RATE_LIMITS.verify) } },
  );

  route(
    app,
    api.links,
    async (request, reply) => {
      const groups = await pub.links(db, localeOf(request));
      cache(reply, SHARED);
      void reply.header('vary', 'accept-language');
      return ok({ groups });
    },
    { config: { rateLimit: limit(PUBLIC_RATE_LIMITS.read) } },
  );

  route(
    app,
    api.prices,
    async (request, reply) => {
      const list = await pub.prices(db, localeOf(request));
      cache(reply, SHARED);
      void reply.header('vary', 'accept-language');
      return ok({ list });
    },
    { config: { rateLimit: limit(PUBLIC_RATE_LIMITS.read) } },
  );

  route(
    app,
    api.figures,
    async (_request, reply) => {
      const figures = await pub.figures(db);
      cache(reply, SHARED);
      return ok(figures);
    },
    { config: { rateLimit: limit(PUBLIC_RATE_LIMITS.read) } },
  );
};

export default publicRoutes;
