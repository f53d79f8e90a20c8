import { useQuery } from '@tanstack/react-query';
import type { OrderAnalysis, OrderAnalysisQuery, WorkplaceData } from '@clearplay/contract';
import { api } from '../../../lib/api-client.ts';

/** The workplace's one query (announcements/api invalidates the same key after a publish or delete). */
export const workplaceQueryKey = ['workplace'] as const;

export const useWorkplace = () =>
  useQuery({ queryKey: workplaceQueryKey, queryFn: ({ signal }) => api.get<WorkplaceData>('/admin/workplace', { signal }) });

export const useOrderAnalysis = (params: OrderAnalysisQuery) =>
  useQuery({
    queryKey: ['analysis', 'orders', params],
    queryFn: ({ signal }) => api.get<OrderAnalysis>('/admin/analysis/orders', { params, signal }),
  });
