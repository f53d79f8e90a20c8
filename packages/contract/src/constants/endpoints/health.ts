import { endpoint } from './endpoint.ts';

const tag = 'health';

/** Liveness and readiness, for a process supervisor or a load balancer. */
export const healthEndpoints = {
  health: endpoint({
    method: 'GET',
    path: '/health',
    access: { auth: 'public', records: 'shared' },
    summary: 'Liveness: the process is running',
    tag,
    schemas: (s) => ({ response: s.HealthData }),
  }),
  ready: endpoint({
    method: 'GET',
    path: '/ready',
    access: { auth: 'public', records: 'shared' },
    summary: 'Readiness: database reachable and migrations done; body status 503 when not',
    tag,
    schemas: (s) => ({ response: s.ReadyData }),
  }),
};
