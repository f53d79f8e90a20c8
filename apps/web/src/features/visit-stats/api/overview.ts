import { useQuery } from '@tanstack/react-query';
import { visitStatEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

export const visitOverviewQueryKey = ['visit-stats', 'overview'] as const;

export const getVisitOverview = (signal?: AbortSignal) => api.call(visitStatEndpoints.overview, { signal });

export const useVisitOverview = () =>
  useQuery({ queryKey: visitOverviewQueryKey, queryFn: ({ signal }) => getVisitOverview(signal), staleTime: 30_000 });
