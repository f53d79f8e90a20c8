import {
  PUBLIC_RATE_LIMITS,
  PublicCertificate,
  PublicCodeParams,
  PublicFigures,
  PublicLinksData,
  PublicLookupData,
  PublicLookupQuery,
  PublicPricesData,
} from '@clearplay/contract';
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { ok, responses } from '../../lib/envelope.ts';
import { localeOf, type RouteDeps } from '../../http/route-context.ts';
import { databaseRateLimit } from '../rate-limit/rate-limit.service.ts';
import * as pub from './public.service.ts';

const tags = ['public'];
const MINUTE = 60_000;

/** How long a browser (and, for the shared ones, a proxy) may keep an answer; set on success only. */
const cache = (reply: FastifyReply, value: string) => void reply.header('cache-control', value);
const SHARED = 'public, max-age=300';

/**
 * The public pages' calls (issue 16; decisions 0048–0051): anyone may call them, each with a
 * per-client limit (by IP, after TRUST_PROXY) through @fastify/rate-limit registered inside this
 * plugin only, so no other route is counted, counted in the database so every process shares it
 * (decision 0074). Over the limit: a 429 envelope in the caller's language with Retry-After,
 * through the app's error handler.
 */
const publicRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  await app.register(
    rateLimit,
    databaseRateLimit({ db, log: app.log }, (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new AppError(429, 'public.rateLimited', { seconds }, { retryAfterSeconds: seconds });
    }),
  );
  const limit = (max: number) => ({ max, timeWindow: MINUTE });

  app.get(
    '/public/lookup',
    {
      config: { auth: 'public', rateLimit: limit(PUBLIC_RATE_LIMITS.lookup) },
      schema: {
        tags,
        summary: 'Public orders of exactly this chat ID (no prefix search; private orders are never told apart from none)',
        querystring: PublicLookupQuery,
        response: responses(PublicLookupData),
      },
    },
    async (request, reply) => {
      const list = await pub.lookup(db, request.query.chatId, localeOf(request));
      cache(reply, 'private, max-age=60');
      void reply.header('vary', 'accept-language');
      return ok({ list });
    },
  );

  app.get(
    '/public/verify/:code',
    {
      config: { auth: 'public', rateLimit: limit(PUBLIC_RATE_LIMITS.verify) },
      schema: {
        tags,
        summary: 'The certificate of a public order by its verification code (404 for an unknown code or a private order)',
        params: PublicCodeParams,
        response: responses(PublicCertificate),
      },
    },
    async (request, reply) => {
      const item = await pub.certificate(db, request.params.code, localeOf(request));
      cache(reply, SHARED);
      void reply.header('vary', 'accept-language');
      return ok(item);
    },
  );

  app.get(
    '/public/links',
    {
      config: { auth: 'public', rateLimit: limit(PUBLIC_RATE_LIMITS.read) },
      schema: { tags, summary: 'The link store: groups of links from the linkstore dictionary', response: responses(PublicLinksData) },
    },
    async (request, reply) => {
      const groups = await pub.links(db, localeOf(request));
      cache(reply, SHARED);
      void reply.header('vary', 'accept-language');
      return ok({ groups });
    },
  );

  app.get(
    '/public/prices',
    {
      config: { auth: 'public', rateLimit: limit(PUBLIC_RATE_LIMITS.read) },
      schema: {
        tags,
        summary: 'Published prices (fen) from the public_price dictionary; empty when none',
        response: responses(PublicPricesData),
      },
    },
    async (request, reply) => {
      const list = await pub.prices(db, localeOf(request));
      cache(reply, SHARED);
      void reply.header('vary', 'accept-language');
      return ok({ list });
    },
  );

  app.get(
    '/public/figures',
    {
      config: { auth: 'public', rateLimit: limit(PUBLIC_RATE_LIMITS.read) },
      schema: { tags, summary: 'Checks recorded and cheaters caught (from the daily counters)', response: responses(PublicFigures) },
    },
    async (_request, reply) => {
      const figures = await pub.figures(db);
      cache(reply, SHARED);
      return ok(figures);
    },
  );
};

export default publicRoutes;
