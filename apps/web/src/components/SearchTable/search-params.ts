import type { Dayjs } from 'dayjs';
import type { QueryParams, SearchField } from './types.ts';

export interface SearchFieldDef {
  /** The form field name. */
  name: string;
  label: string;
  field: SearchField;
}

const isDayjs = (value: unknown): value is Dayjs =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Dayjs).toISOString === 'function' &&
  typeof (value as Dayjs).startOf === 'function';

/**
 * The search form's values → query params: text trimmed (empty dropped), date ranges as two
 * ISO instants (whole days unless the field picks times), everything else as it is.
 */
export function toQueryParams(fields: readonly SearchFieldDef[], values: Record<string, unknown>): QueryParams {
  const params: QueryParams = {};
  for (const { name, field } of fields) {
    const value = values[name];
    if (value === undefined || value === null) continue;
    if (field.type === 'dateRange') {
      if (!Array.isArray(value) || !isDayjs(value[0]) || !isDayjs(value[1])) continue;
      const [start, end] = value as [Dayjs, Dayjs];
      params[field.names[0]] = (field.showTime ? start : start.startOf('day')).toISOString();
      params[field.names[1]] = (field.showTime ? end : end.endOf('day')).toISOString();
      continue;
    }
    if (typeof value === 'string') {
      const text = value.trim();
      if (text !== '') params[name] = text;
      continue;
    }
    if (typeof value === 'number' || typeof value === 'boolean') params[name] = value;
  }
  return params;
}

/** The server-side sort of a list: a column's sort param and its direction. */
export type TableSort = { field: string; order: 'ascend' | 'descend' } | null;

/** antd's sorter after a header click → the sort (no order = the server's default order). */
export function sortOf(sorter: { order?: 'ascend' | 'descend' | null }, field: string | undefined): TableSort {
  return sorter.order && field ? { field, order: sorter.order } : null;
}

/** The sort as list params (nothing for the default order). */
export const sortParams = (sort: TableSort): QueryParams => (sort ? { sortField: sort.field, sortOrder: sort.order } : {});
