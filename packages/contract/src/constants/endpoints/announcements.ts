import { endpoint } from './endpoint.ts';

const tag = 'announcement';

/** Announcements: every signed-in user reads them, publishing and deleting need their permissions. */
export const announcementEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/admin/announcement/list',
    access: { auth: 'user', records: 'shared' },
    summary: 'Announcements, pinned first then newest',
    tag,
    schemas: (s) => ({ query: s.AnnouncementListQuery, response: s.Page(s.AnnouncementItem) }),
  }),
  detail: endpoint({
    method: 'GET',
    path: '/admin/announcement/detail',
    access: { auth: 'user', records: 'shared' },
    summary: 'One announcement (its body sanitized when it was stored): what a notice opens, for every signed-in role',
    tag,
    schemas: (s) => ({ query: s.AnnouncementDetailQuery, response: s.AnnouncementItem }),
  }),
  add: endpoint({
    method: 'POST',
    path: '/admin/announcement/add',
    access: { auth: 'user', permission: 'announcement:create', records: 'shared' },
    log: { module: 'announcement', action: 'create' },
    summary: 'Publish an announcement (content sanitized)',
    tag,
    schemas: (s) => ({ body: s.AnnouncementAddBody, response: s.AnnouncementItem }),
  }),
  delete: endpoint({
    method: 'GET',
    path: '/admin/announcement/delete',
    access: { auth: 'user', permission: 'announcement:delete', records: 'shared' },
    log: { module: 'announcement', action: 'delete' },
    summary: 'Delete an announcement',
    tag,
    schemas: (s) => ({ query: s.AnnouncementDeleteQuery, response: s.Empty }),
  }),
};
