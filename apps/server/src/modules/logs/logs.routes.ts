import { IdQuery, LogDetail, LogItem, LogListQuery, Page } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { localeOf, type RouteDeps } from '../../http/route-context.ts';
import { getLog, listLogs } from './logs.service.ts';

const security = [{ bearer: [] }];

/** Operation log (spec §3, §7): the list with its filters, and one entry in full. */
const logRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/admin/log/list',
    {
      config: { auth: 'user', permission: 'log:view' },
      schema: {
        tags: ['log'],
        summary: 'Operation log, newest first',
        security,
        querystring: LogListQuery,
        response: responses(Page(LogItem)),
      },
    },
    async (request) => ok(await listLogs(db, request.query, localeOf(request))),
  );

  app.get(
    '/admin/log/detail',
    {
      config: { auth: 'user', permission: 'log:view' },
      schema: {
        tags: ['log'],
        summary: 'One log entry with its masked payload',
        security,
        querystring: IdQuery,
        response: responses(LogDetail),
      },
    },
    async (request) => ok(await getLog(db, request.query.id, localeOf(request))),
  );
};

export default logRoutes;
