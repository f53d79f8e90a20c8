import { QueryClient } from '@tanstack/react-query';

/**
 * The one query client. No automatic retries and no refetch on focus: every failed call
 * already shows its error toast, and a retry would show it again.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
