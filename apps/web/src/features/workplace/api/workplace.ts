import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderAnalysisQuery } from '@clearplay/contract';
import { workplaceEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** The workplace's one query (announcements/api invalidates the same key after a publish or delete). */
export const workplaceQueryKey = ['workplace'] as const;

const workplaceQuery = queryOptions({
  queryKey: workplaceQueryKey,
  queryFn: ({ signal }) => api.call(workplaceEndpoints.workplace, { signal }),
  // The answer prefetched at the sign-in (below) is the page's when it mounts, not asked again.
  staleTime: 5000,
});

export const useWorkplace = () => useQuery(workplaceQuery);

/**
 * Starts the workplace's call as soon as the route's guard lets the user in (app/router.tsx),
 * beside the layout's first render rather than after the page mounts: the page then finds the
 * answer on its way (timed from the click on "Log in" to the workplace's figures by bench/login-workplace.bench.ts).
 */
export const prefetchWorkplace = (): void => void queryClient.prefetchQuery(workplaceQuery);

export const useOrderAnalysis = (params: OrderAnalysisQuery) =>
  useQuery({
    queryKey: ['analysis', 'orders', params],
    queryFn: ({ signal }) => api.call(workplaceEndpoints.orderAnalysis, { query: params, signal }),
  });
