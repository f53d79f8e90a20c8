import { useQuery } from '@tanstack/react-query';
import type { LogListQuery } from '@clearplay/contract';
import { logEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

export const logsQueryKey = ['logs'] as const;
export const logListQueryKey = [...logsQueryKey, 'list'] as const;
export const logDetailQueryKey = (id: number) => [...logsQueryKey, 'detail', id] as const;

export const getLogs = (query: LogListQuery, signal?: AbortSignal) => api.call(logEndpoints.list, { query, signal });

export const getLogDetail = (id: number, signal?: AbortSignal) => api.call(logEndpoints.detail, { query: { id }, signal });

export const useLogDetail = (id: number | null) =>
  useQuery({
    queryKey: logDetailQueryKey(id ?? 0),
    queryFn: ({ signal }) => getLogDetail(id ?? 0, signal),
    enabled: id !== null,
    staleTime: Infinity,
  });
