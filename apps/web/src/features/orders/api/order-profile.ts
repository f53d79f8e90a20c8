import { useQuery } from '@tanstack/react-query';
import { orderEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';
import { orderKeys } from './orders.ts';

export const orderProfileKey = (id: number) => [...orderKeys.all, 'profile', id] as const;

/** GET /admin/order/profile: the order, its verification URL and its ledger entries. Quiet: the page shows why it failed. */
export const getOrderProfile = (id: number, signal?: AbortSignal) =>
  api.call(orderEndpoints.profile, { query: { id }, signal, quiet: true });

/** An order's profile (the profile page); idle while `id` is null. A refused or missing order is not retried. */
export const useOrderProfile = (id: number | null) =>
  useQuery({
    queryKey: orderProfileKey(id ?? 0),
    queryFn: ({ signal }) => getOrderProfile(id ?? 0, signal),
    enabled: id !== null,
    retry: false,
  });
