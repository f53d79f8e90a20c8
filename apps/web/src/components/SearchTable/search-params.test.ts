import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { sortOf, sortParams, toQueryParams, type SearchFieldDef } from './search-params.ts';

const fields: SearchFieldDef[] = [
  { name: 'username', label: 'Username', field: { type: 'input' } },
  { name: 'status', label: 'Status', field: { type: 'dict', dictType: 'common_status', numeric: true } },
  { name: 'created', label: 'Created', field: { type: 'dateRange', names: ['createdStart', 'createdEnd'] } },
  { name: 'time', label: 'Time', field: { type: 'dateRange', names: ['startTime', 'endTime'], showTime: true } },
];

describe('search params', () => {
  it('trims text, drops empty values, keeps numbers (0 too)', () => {
    expect(toQueryParams(fields, { username: '  shop ', status: 0 })).toEqual({ username: 'shop', status: 0 });
    expect(toQueryParams(fields, { username: '   ', status: undefined })).toEqual({});
  });

  it('sends a day range from the first day start to the last day end, a time range as picked', () => {
    const start = dayjs('2026-03-01T10:00:00');
    const end = dayjs('2026-03-05T12:30:00');
    const params = toQueryParams(fields, { created: [start, end], time: [start, end] });
    expect(params.createdStart).toBe(start.startOf('day').toISOString());
    expect(params.createdEnd).toBe(end.endOf('day').toISOString());
    expect(params.startTime).toBe(start.toISOString());
    expect(params.endTime).toBe(end.toISOString());
  });
});

describe('server-side sort', () => {
  it('takes the clicked column and direction, and the default order when the header cycles back', () => {
    expect(sortOf({ order: 'ascend' }, 'amount')).toEqual({ field: 'amount', order: 'ascend' });
    expect(sortOf({ order: 'descend' }, 'amount')).toEqual({ field: 'amount', order: 'descend' });
    expect(sortOf({ order: null }, 'amount')).toBeNull();
    expect(sortOf({ order: undefined }, 'amount')).toBeNull();
  });

  it('starts over on another column', () => {
    expect(sortOf({ order: 'ascend' }, 'createdTime')).toEqual({ field: 'createdTime', order: 'ascend' });
  });

  it('sends the sort as sortField/sortOrder, nothing for the default order', () => {
    expect(sortParams({ field: 'createdTime', order: 'descend' })).toEqual({ sortField: 'createdTime', sortOrder: 'descend' });
    expect(sortParams(null)).toEqual({});
  });
});
