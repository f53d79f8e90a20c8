import type { QueryOf } from '@clearplay/contract';
import { orderEndpoints } from '@clearplay/contract/constants';
import type { QueryValue } from '../../../lib/api-client.ts';
import { api } from '../../../lib/api-client.ts';

/** Params of the list that are not filters: the export takes every row that matches. */
const NOT_FILTERS = new Set(['page', 'pageSize', 'current']);

const isInstant = (value: unknown): value is { toISOString: () => string } =>
  typeof value === 'object' && value !== null && typeof (value as { toISOString?: unknown }).toISOString === 'function';

/**
 * The list's search filters → the export's query params: paging dropped, empty values dropped,
 * dates (Date or dayjs) as ISO instants, everything else as the list sends it.
 */
export function exportParams(filters: Record<string, unknown>): Record<string, QueryValue> {
  const params: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (NOT_FILTERS.has(key) || value === undefined || value === null) continue;
    if (typeof value === 'string') {
      const text = value.trim();
      if (text !== '') params[key] = text;
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      params[key] = value;
    } else if (isInstant(value)) {
      params[key] = value.toISOString();
    }
  }
  return params;
}

/** GET /admin/order/export with the list's filters: the server streams an xlsx; it is saved. */
export const exportOrders = (filters: Record<string, unknown>, fallbackName = 'orders.xlsx') =>
  api.download(orderEndpoints.export, {
    // The list's filters as the list sends them (the export takes the same ones; the server checks them).
    query: exportParams(filters) as QueryOf<typeof orderEndpoints.export>,
    fallbackName,
  });
