import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { MessageListQuery, UnreadCounts } from '@clearplay/contract';
import { MESSAGE_POLL_MS, messageEndpoints, type MessageKind } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

/** Query keys of the message box: a mark-read or a new item invalidates `messageKeys.all`. */
export const messageKeys = {
  all: ['messages'] as const,
  unread: ['messages', 'unread'] as const,
  lists: ['messages', 'list'] as const,
  list: (query: MessageListQuery) => [...messageKeys.lists, query] as const,
};

/** GET /admin/message/list: one page of the caller's messages, with the unread counts. */
export const getMessages = (query: MessageListQuery, signal?: AbortSignal) => api.call(messageEndpoints.list, { query, signal });

interface UnreadState {
  counts: UnreadCounts;
  etag: string | null;
}

const EMPTY: UnreadCounts = { message: 0, notice: 0, todo: 0, total: 0 };

/**
 * GET /admin/message/unread, polled every MESSAGE_POLL_MS while the tab is visible (TanStack
 * Query pauses interval refetches of a hidden tab) and again when it comes back. The version
 * last seen goes as If-None-Match: an unchanged box answers 304 with no body. When the counts
 * change, the open lists are fetched again, so new items show without a reload.
 */
async function pollUnread(queryClient: QueryClient, signal: AbortSignal): Promise<UnreadState> {
  const previous = queryClient.getQueryData<UnreadState>(messageKeys.unread);
  const answer = await api.callIfChanged(messageEndpoints.unread, previous?.etag ?? null, { signal, quiet: true });
  if (!answer.changed) return previous ?? { counts: EMPTY, etag: null };
  if (previous !== undefined && previous.etag !== answer.etag) void queryClient.invalidateQueries({ queryKey: messageKeys.lists });
  return { counts: answer.data, etag: answer.etag };
}

export function useUnreadCounts(): UnreadCounts {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: messageKeys.unread,
    queryFn: ({ signal }) => pollUnread(queryClient, signal),
    refetchInterval: MESSAGE_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
    staleTime: 0,
  });
  return data?.counts ?? EMPTY;
}

/** A page of one kind (the popover's tab) or of every kind (the full page). */
export const useMessages = (query: MessageListQuery, enabled = true) =>
  useQuery({
    queryKey: messageKeys.list(query),
    queryFn: ({ signal }) => getMessages(query, signal),
    enabled,
    placeholderData: (previous) => previous,
  });

/** POST /admin/message/read: marks the caller's own messages read; refreshes the box. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly number[]) => api.call(messageEndpoints.read, { body: { ids: [...ids] } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
  });
}

/** Every unread id of a kind (or of all kinds), page by page: what "all read" sends. */
export async function unreadIds(type: MessageKind | undefined): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; page <= 10; page++) {
    const answer = await getMessages({ type, read: 'unread', page, pageSize: 100 });
    ids.push(...answer.list.map((m) => m.id));
    if (answer.list.length < 100) break;
  }
  return ids;
}
