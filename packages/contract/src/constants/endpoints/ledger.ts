import { endpoint } from './endpoint.ts';

const tag = 'ledger';

/** Shop balances: recharges recorded by staff and each shop's ledger. */
export const ledgerEndpoints = {
  recharge: endpoint({
    method: 'POST',
    path: '/admin/user/recharge',
    access: { auth: 'user', permission: 'user:recharge', records: 'any' },
    log: { module: 'user', action: 'recharge' },
    idempotent: true,
    summary: 'Record money received from a shop',
    tag,
    schemas: (s) => ({ body: s.RechargeBody, response: s.RechargeResult }),
  }),
  ledger: endpoint({
    method: 'GET',
    path: '/admin/user/ledger',
    access: { auth: 'user', permission: 'user:ledger', records: 'any' },
    summary: "A shop's ledger, newest first, with its balance",
    tag,
    schemas: (s) => ({ query: s.LedgerQuery, response: s.LedgerPage }),
  }),
};
