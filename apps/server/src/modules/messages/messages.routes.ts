import { MessageListQuery, MessagePage, MessageReadBody, MessageReadResult, UnreadCounts } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { localeOf, requireUser, type RouteDeps } from '../../http/route-context.ts';
import * as messages from './messages.service.ts';

const security = [{ bearer: [] }];
const tags = ['message'];

/**
 * The message box (spec §2): every signed-in user reads and marks only their own items.
 * Marking read is not an operation-log line (it changes only the caller's own box, many
 * times a day).
 */
const messageRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/admin/message/list',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "The caller's messages by kind and read state, newest first, with the unread counts per kind",
        security,
        querystring: MessageListQuery,
        response: responses(MessagePage),
      },
    },
    async (request) => ok(await messages.listMessages(db, requireUser(request).id, request.query, localeOf(request))),
  );

  app.post(
    '/admin/message/read',
    {
      config: { auth: 'user', log: false },
      schema: {
        tags,
        summary: "Marks the caller's messages read; an id that is not the caller's refuses the whole call",
        security,
        body: MessageReadBody,
        response: responses(MessageReadResult),
      },
    },
    async (request) => ok(await messages.markRead(db, requireUser(request).id, request.body.ids)),
  );

  app.get(
    '/admin/message/unread',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'The unread counts per kind; ETag, 304 when If-None-Match still matches (the poll)',
        security,
        response: { ...responses(UnreadCounts), 304: { description: 'Not modified (no body)' } },
      },
    },
    async (request, reply) => {
      const { etag, ...counts } = await messages.unreadCounts(db, requireUser(request).id);
      void reply.header('etag', etag).header('cache-control', 'private, no-cache');
      const match = request.headers['if-none-match'];
      if (match !== undefined && match.split(',').some((tag) => tag.trim() === etag)) return reply.code(304).send();
      return ok(counts);
    },
  );
};

export default messageRoutes;
