import { endpoint } from './endpoint.ts';

const tag = 'message';

/**
 * The message box: every signed-in user reads and marks only their own items. Marking read is
 * not an operation-log line (it changes only the caller's own box, many times a day).
 */
export const messageEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/admin/message/list',
    access: { auth: 'user', records: 'own' },
    summary: "The caller's messages by kind and read state, newest first, with the unread counts per kind",
    tag,
    schemas: (s) => ({ query: s.MessageListQuery, response: s.MessagePage }),
  }),
  read: endpoint({
    method: 'POST',
    path: '/admin/message/read',
    access: { auth: 'user', records: 'own' },
    log: false,
    summary: "Marks the caller's messages read; an id that is not the caller's refuses the whole call",
    tag,
    schemas: (s) => ({ body: s.MessageReadBody, response: s.MessageReadResult }),
  }),
  unread: endpoint({
    method: 'GET',
    path: '/admin/message/unread',
    access: { auth: 'user', records: 'own' },
    summary: 'The unread counts per kind; ETag, 304 when If-None-Match still matches (the poll)',
    tag,
    schemas: (s) => ({ response: s.UnreadCounts }),
  }),
};
