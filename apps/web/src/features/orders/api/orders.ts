import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrderCreateBody, OrderListQuery, OrderUpdateBody } from '@clearplay/contract';
import { orderEndpoints } from '@clearplay/contract/constants';
import { useState } from 'react';
import { api } from '../../../lib/api-client.ts';
import { submissionKeys } from '../../../lib/submission-key.ts';

/** Query keys of the order screen, defined once: a change invalidates `orderKeys.all`. */
export const orderKeys = {
  all: ['orders'] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  details: () => [...orderKeys.all, 'detail'] as const,
  detail: (id: number) => [...orderKeys.details(), id] as const,
};

export const getOrders = (query: OrderListQuery, signal?: AbortSignal) => api.call(orderEndpoints.list, { query, signal });

export const getOrder = (id: number, signal?: AbortSignal) => api.call(orderEndpoints.detail, { query: { id }, signal });

/** One order (the detail modal and the edit form); idle while `id` is null. */
export const useOrder = (id: number | null | undefined) =>
  useQuery({
    queryKey: orderKeys.detail(id ?? 0),
    queryFn: ({ signal }) => getOrder(id ?? 0, signal),
    enabled: id !== null && id !== undefined,
  });

/** A mutation that refreshes every order query (lists and details) when it succeeds, and waits for it. */
function useOrderMutation<Vars, Result>(mutationFn: (vars: Vars) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}

/** Records an order; the same submission sent again goes with the same Idempotency-Key (decision 0109). */
export function useCreateOrder() {
  const [keys] = useState(submissionKeys);
  return useOrderMutation((body: OrderCreateBody) =>
    keys.send(body, (idempotencyKey) => api.call(orderEndpoints.create, { body, idempotencyKey })),
  );
}
export const useUpdateOrder = () => useOrderMutation((body: OrderUpdateBody) => api.call(orderEndpoints.update, { body }));
/** Deletes one or many orders by id. */
export const useDeleteOrders = () =>
  useOrderMutation((ids: readonly number[]) => api.call(orderEndpoints.delete, { body: { ids: [...ids] } }));

/** Saves the order's ZIP (images by kind plus a summary) under the server's file name. */
export const downloadOrder = (id: number) => api.download(orderEndpoints.download, { query: { id }, fallbackName: `order-${id}.zip` });
