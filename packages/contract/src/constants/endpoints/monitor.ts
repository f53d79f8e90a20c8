import { endpoint } from './endpoint.ts';

/** The monitor screen's one call: read-only, refreshed every 30 s by the screen, so not logged. */
export const monitorEndpoints = {
  overview: endpoint({
    method: 'GET',
    path: '/admin/monitor',
    // Every order of the day and every staff member online: any user's records.
    access: { auth: 'user', permission: 'workplace:view', records: 'any' },
    log: false,
    summary: "Today's live figures (Asia/Shanghai): orders per hour, count and amount, staff online in the last 15 minutes, latest imports",
    tag: 'monitor',
    schemas: (s) => ({ response: s.MonitorData }),
  }),
};
