import { endpoint } from './endpoint.ts';

const tag = 'public';

/**
 * The public pages' calls (decisions 0048–0051): anyone, published data only (public
 * orders, the link store, published prices, the counters), each with a per-client rate limit
 * (the server's, in `route`'s last argument).
 */
export const publicEndpoints = {
  lookup: endpoint({
    method: 'GET',
    path: '/public/lookup',
    access: { auth: 'public', records: 'shared' },
    summary: 'Public orders of exactly this chat ID (no prefix search; private orders are never told apart from none)',
    tag,
    schemas: (s) => ({ query: s.PublicLookupQuery, response: s.PublicLookupData }),
  }),
  verify: endpoint({
    method: 'GET',
    path: '/public/verify/:code',
    access: { auth: 'public', records: 'shared' },
    summary: 'The certificate of a public order by its verification code (404 for an unknown code or a private order)',
    tag,
    schemas: (s) => ({ params: s.PublicCodeParams, response: s.PublicCertificate }),
  }),
  links: endpoint({
    method: 'GET',
    path: '/public/links',
    access: { auth: 'public', records: 'shared' },
    summary: 'The link store: groups of links from the linkstore dictionary',
    tag,
    schemas: (s) => ({ response: s.PublicLinksData }),
  }),
  prices: endpoint({
    method: 'GET',
    path: '/public/prices',
    access: { auth: 'public', records: 'shared' },
    summary: 'Published prices (fen) from the public_price dictionary; empty when none',
    tag,
    schemas: (s) => ({ response: s.PublicPricesData }),
  }),
  figures: endpoint({
    method: 'GET',
    path: '/public/figures',
    access: { auth: 'public', records: 'shared' },
    summary: 'Checks recorded and cheaters caught (from the daily counters)',
    tag,
    schemas: (s) => ({ response: s.PublicFigures }),
  }),
};
