import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { normalizeMac, orderEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';
import { orderKeys } from './orders.ts';

/** What the history is looked up by: a chat ID and/or a MAC, optionally as of an existing order. */
export interface HistoryLookup {
  objWechat?: string;
  mac?: string;
  orderId?: number;
}

/** The form waits this long after the last keystroke before it looks the target up. */
export const HISTORY_DEBOUNCE_MS = 400;

/**
 * The lookup's params: the chat ID trimmed, the MAC only once it is a whole MAC in an accepted
 * spelling (the server answers 400 to a half-typed one). Null: nothing to look up.
 */
export function historyParams(lookup: HistoryLookup): { objWechat?: string; mac?: string; orderId?: number } | null {
  const objWechat = lookup.objWechat?.trim() || undefined;
  const mac = lookup.mac === undefined ? null : normalizeMac(lookup.mac);
  const params = { objWechat, mac: mac ?? undefined, orderId: lookup.orderId };
  if (params.objWechat === undefined && params.mac === undefined && params.orderId === undefined) return null;
  return params;
}

export const getOrderHistory = (params: NonNullable<ReturnType<typeof historyParams>>, signal?: AbortSignal) =>
  api.call(orderEndpoints.history, { query: params, signal });

/** `value`, once it has not changed for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** GET /admin/order/history for the lookup (idle when there is nothing to look up); keeps the last answer while the next loads. */
export function useOrderHistory(lookup: HistoryLookup) {
  const params = historyParams(lookup);
  return useQuery({
    queryKey: [...orderKeys.all, 'history', params] as const,
    queryFn: ({ signal }) => getOrderHistory(params ?? {}, signal),
    enabled: params !== null,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
}

/**
 * The history of the chat ID and MAC being typed, debounced (HISTORY_DEBOUNCE_MS): the last
 * answer while the next loads, nothing once both fields are empty, and the "changed MAC"
 * proposal only from an answer for what is in the fields now.
 */
export function useTargetHistory(objWechat: string | undefined, mac: string | undefined, orderId: number | undefined) {
  const settledWechat = useDebounced(objWechat ?? '', HISTORY_DEBOUNCE_MS);
  const settledMac = useDebounced(mac ?? '', HISTORY_DEBOUNCE_MS);
  const lookup = { objWechat: settledWechat, mac: settledMac, orderId };
  const query = useOrderHistory(lookup);
  const idle = historyParams(lookup) === null;
  const current = !idle && query.data !== undefined && !query.isPlaceholderData;
  return {
    data: idle ? undefined : query.data,
    loading: !idle && query.isFetching,
    proposal: current ? (query.data?.proposedChangedMac ?? null) : null,
  };
}
