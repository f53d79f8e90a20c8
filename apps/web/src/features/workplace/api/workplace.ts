import { useEffect } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderAnalysisQuery } from '@clearplay/contract';
import { workplaceEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

/** The workplace's one query (announcements/api invalidates the same key after a publish or delete). */
export const workplaceQueryKey = ['workplace'] as const;

const workplaceQuery = () =>
  queryOptions({ queryKey: workplaceQueryKey, queryFn: ({ signal }) => api.call(workplaceEndpoints.workplace, { signal }) });

/** When the route's loader started the call the page about to show will use (prefetchWorkplace); cleared once it showed. */
let loaderStartedAt: number | null = null;

/**
 * Started by the workplace route's loader once the guard let the user in (app/router.tsx, decision
 * 0117): the call runs beside the page's code and its first render rather than after them (after a
 * sign-in, this screen's figures waited for the layout to render before they were asked for). Only
 * when nothing is cached or under way (the first visit of a session): a later visit shows what is
 * cached while the page asks again, as before.
 */
export function prefetchWorkplace(): void {
  if (queryClient.getQueryState(workplaceQueryKey) !== undefined) return;
  loaderStartedAt = Date.now();
  void queryClient.prefetchQuery(workplaceQuery());
}

export const useWorkplace = () => {
  const query = useQuery({
    ...workplaceQuery(),
    // What the loader fetched for this visit (its figures, or its failure and toast) is not asked
    // again on mount; a call still under way is shared anyway.
    refetchOnMount: (q) => loaderStartedAt === null || Math.max(q.state.dataUpdatedAt, q.state.errorUpdatedAt) < loaderStartedAt,
  });
  useEffect(() => {
    loaderStartedAt = null;
  }, []);
  return query;
};

export const useOrderAnalysis = (params: OrderAnalysisQuery) =>
  useQuery({
    queryKey: ['analysis', 'orders', params],
    queryFn: ({ signal }) => api.call(workplaceEndpoints.orderAnalysis, { query: params, signal }),
  });
