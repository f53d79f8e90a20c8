import { useQuery } from '@tanstack/react-query';
import type { OrderProfile } from '@clearplay/contract';
import { api } from '../../../lib/api-client.ts';
import { orderKeys } from './orders.ts';

export const orderProfileKey = (id: number) => [...orderKeys.all, 'profile', id] as const;

/** GET /admin/order/profile: the order, its verification URL and its ledger entries. Quiet: the page shows why it failed. */
export const getOrderProfile = (id: number, signal?: AbortSignal) =>
  api.get<OrderProfile>('/admin/order/profile', { params: { id }, signal, quiet: true });

/** An order's profile (the profile page); idle while `id` is null. A refused or missing order is not retried. */
export const useOrderProfile = (id: number | null) =>
  useQuery({
    queryKey: orderProfileKey(id ?? 0),
    queryFn: ({ signal }) => getOrderProfile(id ?? 0, signal),
    enabled: id !== null,
    retry: false,
  });
