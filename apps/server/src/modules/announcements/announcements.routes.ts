import { announcementEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { requireUser, type RouteDeps } from '../../http/route-context.ts';
import { publicFilesBase } from '../uploads/uploads.service.ts';
import * as announcements from './announcements.service.ts';
import { logText } from '../../lib/log-text.ts';

/** Announcements: every signed-in user reads them, publishing and deleting need their permissions. */
const announcementRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config }) => {
  const rules = { imageBases: [publicFilesBase(config.uploads)] };

  route(app, api.list, async (request) => ok(await announcements.listAnnouncements(db, request.query)));

  route(app, api.detail, async (request) => ok(await announcements.getAnnouncement(db, request.query.id)));

  route(app, api.add, async (request) => {
    const user = requireUser(request);
    const item = await announcements.addAnnouncement(db, request.body, { id: user.id, name: user.nickname || user.username }, rules);
    request.logContent = logText('log.text.announcement.published', { title: item.title, id: item.id });
    return ok(item);
  });

  route(app, api.delete, async (request) => {
    const title = await announcements.deleteAnnouncement(db, request.query.id);
    request.logContent = logText('log.text.announcement.deleted', { title, id: request.query.id });
    return ok(null);
  });
};

export default announcementRoutes;
