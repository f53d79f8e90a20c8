import { useQuery } from '@tanstack/react-query';
import { monitorEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

export const monitorQueryKey = ['monitor'] as const;
/** The monitor refreshes this often while the page is visible. */
export const MONITOR_REFRESH_MS = 30_000;

export const getMonitor = (signal?: AbortSignal) => api.call(monitorEndpoints.overview, { signal });

/**
 * Today's live figures, every 30 s while the browser tab is visible: react-query pauses the
 * interval while document.visibilityState is "hidden" (refetchIntervalInBackground false) and
 * refetches when the tab shows again.
 */
export const useMonitor = () =>
  useQuery({
    queryKey: monitorQueryKey,
    queryFn: ({ signal }) => getMonitor(signal),
    refetchInterval: MONITOR_REFRESH_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: MONITOR_REFRESH_MS / 2,
  });
