import { endpoint } from './endpoint.ts';

const tag = 'log';

/** The operation log: the list with its filters, and one entry in full. */
export const logEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/admin/log/list',
    access: { auth: 'user', permission: 'log:view', records: 'any' },
    summary: 'Operation log, newest first',
    tag,
    schemas: (s) => ({ query: s.LogListQuery, response: s.Page(s.LogItem) }),
  }),
  detail: endpoint({
    method: 'GET',
    path: '/admin/log/detail',
    access: { auth: 'user', permission: 'log:view', records: 'any' },
    summary: 'One log entry with its masked payload',
    tag,
    schemas: (s) => ({ query: s.IdQuery, response: s.LogDetail }),
  }),
};
