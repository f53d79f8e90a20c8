import {
  AnnouncementAddBody,
  AnnouncementDeleteQuery,
  AnnouncementDetailQuery,
  AnnouncementItem,
  AnnouncementListQuery,
  Empty,
  Page,
} from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { requireUser, type RouteDeps } from '../../http/route-context.ts';
import { publicFilesBase } from '../uploads/uploads.service.ts';
import * as announcements from './announcements.service.ts';

const security = [{ bearer: [] }];
const tags = ['announcement'];

/** Announcements (spec §7; issue 13): every signed-in user reads them, publishing and deleting need their permissions. */
const announcementRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  const rules = { imageBases: [publicFilesBase(config.uploads)] };

  app.get(
    '/admin/announcement/list',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Announcements, pinned first then newest',
        security,
        querystring: AnnouncementListQuery,
        response: responses(Page(AnnouncementItem)),
      },
    },
    async (request) => ok(await announcements.listAnnouncements(db, request.query)),
  );

  app.get(
    '/admin/announcement/detail',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'One announcement (its body sanitized when it was stored): what a notice opens, for every signed-in role',
        security,
        querystring: AnnouncementDetailQuery,
        response: responses(AnnouncementItem),
      },
    },
    async (request) => ok(await announcements.getAnnouncement(db, request.query.id)),
  );

  app.post(
    '/admin/announcement/add',
    {
      config: { auth: 'user', permission: 'announcement:create', log: { module: 'announcement', action: 'create' } },
      schema: {
        tags,
        summary: 'Publish an announcement (content sanitized)',
        security,
        body: AnnouncementAddBody,
        response: responses(AnnouncementItem),
      },
    },
    async (request) => {
      const user = requireUser(request);
      const item = await announcements.addAnnouncement(db, request.body, { id: user.id, name: user.nickname || user.username }, rules);
      request.logContent = `announcement ${item.title} (#${item.id}): published`;
      return ok(item);
    },
  );

  app.get(
    '/admin/announcement/delete',
    {
      config: { auth: 'user', permission: 'announcement:delete', log: { module: 'announcement', action: 'delete' } },
      schema: { tags, summary: 'Delete an announcement', security, querystring: AnnouncementDeleteQuery, response: responses(Empty) },
    },
    async (request) => {
      const title = await announcements.deleteAnnouncement(db, request.query.id);
      request.logContent = `announcement ${title} (#${request.query.id}): deleted`;
      return ok(null);
    },
  );
};

export default announcementRoutes;
