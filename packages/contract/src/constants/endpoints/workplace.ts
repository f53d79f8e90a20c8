import { endpoint } from './endpoint.ts';

const tag = 'workplace';

/** The workplace and the order analysis (the data-analysis page): figures over every shop. */
export const workplaceEndpoints = {
  workplace: endpoint({
    method: 'GET',
    path: '/admin/workplace',
    access: { auth: 'user', permission: 'workplace:view', records: 'any' },
    summary: 'Every figure of the workplace in one answer',
    tag,
    schemas: (s) => ({ response: s.WorkplaceData }),
  }),
  orderAnalysis: endpoint({
    method: 'GET',
    path: '/admin/analysis/orders',
    access: { auth: 'user', permission: 'workplace:view', records: 'any' },
    summary: 'Orders by game, result and shop over business days, in day / week / month buckets',
    tag,
    schemas: (s) => ({ query: s.OrderAnalysisQuery, response: s.OrderAnalysis }),
  }),
};
