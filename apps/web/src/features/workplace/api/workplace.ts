import { useQuery } from '@tanstack/react-query';
import type { OrderAnalysisQuery } from '@clearplay/contract';
import { workplaceEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

/** The workplace's one query (announcements/api invalidates the same key after a publish or delete). */
export const workplaceQueryKey = ['workplace'] as const;

export const useWorkplace = () =>
  useQuery({ queryKey: workplaceQueryKey, queryFn: ({ signal }) => api.call(workplaceEndpoints.workplace, { signal }) });

export const useOrderAnalysis = (params: OrderAnalysisQuery) =>
  useQuery({
    queryKey: ['analysis', 'orders', params],
    queryFn: ({ signal }) => api.call(workplaceEndpoints.orderAnalysis, { query: params, signal }),
  });
