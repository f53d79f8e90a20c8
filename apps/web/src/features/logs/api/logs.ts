import { useQuery } from '@tanstack/react-query';
import type { LogDetail, LogItem, LogListQuery } from '@clearplay/contract';
import type { TablePage } from '../../../components/SearchTable/index.ts';
import { api } from '../../../lib/api-client.ts';

export const logsQueryKey = ['logs'] as const;
export const logListQueryKey = [...logsQueryKey, 'list'] as const;
export const logDetailQueryKey = (id: number) => [...logsQueryKey, 'detail', id] as const;

export const getLogs = (params: LogListQuery, signal?: AbortSignal) => api.get<TablePage<LogItem>>('/admin/log/list', { params, signal });

export const getLogDetail = (id: number, signal?: AbortSignal) => api.get<LogDetail>('/admin/log/detail', { params: { id }, signal });

export const useLogDetail = (id: number | null) =>
  useQuery({
    queryKey: logDetailQueryKey(id ?? 0),
    queryFn: ({ signal }) => getLogDetail(id ?? 0, signal),
    enabled: id !== null,
    staleTime: Infinity,
  });
