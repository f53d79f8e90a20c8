import { messageEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { localeOf, requireUser, type RouteDeps } from '../../http/route-context.ts';
import * as messages from './messages.service.ts';

/**
 * The message box (docs/product.md "Messages"): every signed-in user reads and marks only their own items.
 * Marking read is not an operation-log line (it changes only the caller's own box, many
 * times a day).
 */
const messageRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.list, async (request) => ok(await messages.listMessages(db, requireUser(request).id, request.query, localeOf(request))));

  route(app, api.read, async (request) => ok(await messages.markRead(db, requireUser(request).id, request.body.ids)));

  route(
    app,
    api.unread,
    async (request, reply) => {
      const { etag, ...counts } = await messages.unreadCounts(db, requireUser(request).id);
      void reply.header('etag', etag).header('cache-control', 'private, no-cache');
      const match = request.headers['if-none-match'];
      if (match !== undefined && match.split(',').some((tag) => tag.trim() === etag)) return reply.code(304).send();
      return ok(counts);
    },
    { response: { 304: { description: 'Not modified (no body)' } } },
  );
};

export default messageRoutes;
