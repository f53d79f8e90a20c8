import { endpoint } from './endpoint.ts';

const tag = 'tracking';

/**
 * Spec §7 "Tracking": page views and client events, sent by anyone (public pages too; a bearer
 * token, when sent, must be live), recorded as the caller's own; never in the operation log.
 * Their rate limit and body sizes are the server's (`route`'s last argument).
 */
export const trackingEndpoints = {
  pageView: endpoint({
    method: 'POST',
    path: '/visit-stats/create',
    access: { auth: 'optional', records: 'own' },
    log: false,
    summary: 'Record a page view',
    tag,
    schemas: (s) => ({ body: s.PageViewBody, response: s.Empty }),
  }),
  event: endpoint({
    method: 'POST',
    path: '/analytics/event',
    access: { auth: 'optional', records: 'own' },
    log: false,
    summary: 'Record a client event',
    tag,
    schemas: (s) => ({ body: s.EventBody, response: s.Empty }),
  }),
};
