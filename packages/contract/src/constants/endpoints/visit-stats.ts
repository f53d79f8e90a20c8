import { endpoint } from './endpoint.ts';

/** The visit statistics screen (what the tracking calls recorded). */
export const visitStatEndpoints = {
  overview: endpoint({
    method: 'GET',
    path: '/admin/visit-stats/overview',
    // Every visitor's page views, counted together.
    access: { auth: 'user', permission: 'workplace:view', records: 'any' },
    log: false,
    summary: 'Visit statistics: page views and unique visitors today and per Shanghai day for 30 days, top pages, referrers and events',
    tag: 'tracking',
    schemas: (s) => ({ response: s.VisitOverview }),
  }),
};
