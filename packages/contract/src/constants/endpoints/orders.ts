import { endpoint } from './endpoint.ts';

const tag = 'order';

/**
 * Detection orders. Staff see every order; a shop sees its own and other shops' public ones,
 * reduced (the service decides per order: records 'scoped').
 */
export const orderEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/admin/order/list',
    access: { auth: 'user', permission: 'order:view', records: 'scoped' },
    summary: 'Orders the caller may see, newest first, with filters',
    tag,
    schemas: (s) => ({ query: s.OrderListQuery, response: s.Page(s.OrderItem) }),
  }),
  detail: endpoint({
    method: 'GET',
    path: '/admin/order/detail',
    access: { auth: 'user', permission: 'order:view', records: 'scoped' },
    summary: 'One order (reduced view for another shop’s public order)',
    tag,
    schemas: (s) => ({ query: s.IdQuery, response: s.OrderItem }),
  }),
  profile: endpoint({
    method: 'GET',
    path: '/admin/order/profile',
    access: { auth: 'user', permission: 'order:view', records: 'scoped' },
    summary: 'An order’s profile page: the order, its verification URL and its ledger entries',
    tag,
    schemas: (s) => ({ query: s.IdQuery, response: s.OrderProfile }),
  }),
  price: endpoint({
    method: 'GET',
    path: '/admin/order/price',
    access: { auth: 'user', permission: ['order:create', 'order:update'], records: 'any' },
    summary: "A client shop's price per result (fills the order form's amount)",
    tag,
    schemas: (s) => ({ query: s.OrderPriceQuery, response: s.OrderPrices }),
  }),
  create: endpoint({
    method: 'POST',
    path: '/admin/order/create',
    access: { auth: 'user', permission: 'order:create', records: 'scoped' },
    log: { module: 'order', action: 'create' },
    idempotent: true,
    summary: "Record an order and charge the client shop's ledger",
    tag,
    schemas: (s) => ({ body: s.OrderCreateBody, response: s.OrderItem }),
  }),
  update: endpoint({
    method: 'POST',
    path: '/admin/order/update',
    access: { auth: 'user', permission: 'order:update', records: 'scoped' },
    log: { module: 'order', action: 'update' },
    summary: 'Edit an order; a changed amount or client posts the difference to the ledger',
    tag,
    schemas: (s) => ({ body: s.OrderUpdateBody, response: s.OrderItem }),
  }),
  delete: endpoint({
    method: 'POST',
    path: '/admin/order/delete',
    access: { auth: 'user', permission: 'order:delete', records: 'scoped' },
    log: { module: 'order', action: 'delete' },
    summary: 'Delete orders and reverse their charges (all or nothing)',
    tag,
    schemas: (s) => ({ body: s.IdsBody, response: s.OrderDeleteResult }),
  }),
  history: endpoint({
    method: 'GET',
    path: '/admin/order/history',
    access: { auth: 'user', permission: 'order:view', records: 'scoped' },
    summary: "A target's earlier records by chat ID and the same machine's records under other chat IDs, as the caller may see them",
    tag,
    schemas: (s) => ({ query: s.OrderHistoryQuery, response: s.OrderHistory }),
  }),
  // ── files: the web saves the answer (api.download) or sends a form (the import) ──
  importTemplate: endpoint({
    method: 'GET',
    path: '/admin/order/import/template',
    access: { auth: 'user', permission: 'order:import', records: 'shared' },
    summary: 'The import template (xlsx), headers in the caller’s language',
    tag,
    schemas: () => ({ response: 'file' }),
  }),
  import: endpoint({
    method: 'POST',
    path: '/admin/order/import',
    access: { auth: 'user', permission: 'order:import', records: 'scoped' },
    log: { module: 'order', action: 'import' },
    idempotent: true,
    summary: 'Import orders from an xlsx or csv file (multipart field "file"); all or nothing unless keepValid',
    tag,
    schemas: (s) => ({ query: s.OrderImportQuery, body: 'multipart', response: s.OrderImportResult }),
  }),
  export: endpoint({
    method: 'GET',
    path: '/admin/order/export',
    access: { auth: 'user', permission: 'order:export', records: 'scoped' },
    summary: 'The orders the list shows for these filters, streamed as xlsx',
    tag,
    schemas: (s) => ({ query: s.OrderExportQuery, response: 'file' }),
  }),
  download: endpoint({
    method: 'GET',
    path: '/admin/order/download',
    access: { auth: 'user', permission: 'order:download', records: 'scoped' },
    summary: 'An order’s images by kind and a one-page summary, as a ZIP',
    tag,
    schemas: (s) => ({ query: s.IdQuery, response: 'file' }),
  }),
};
