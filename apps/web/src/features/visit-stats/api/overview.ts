import { useQuery } from '@tanstack/react-query';
import type { VisitOverview } from '@clearplay/contract';
import { api } from '../../../lib/api-client.ts';

export const visitOverviewQueryKey = ['visit-stats', 'overview'] as const;

export const getVisitOverview = (signal?: AbortSignal) => api.get<VisitOverview>('/admin/visit-stats/overview', { signal });

export const useVisitOverview = () =>
  useQuery({ queryKey: visitOverviewQueryKey, queryFn: ({ signal }) => getVisitOverview(signal), staleTime: 30_000 });
