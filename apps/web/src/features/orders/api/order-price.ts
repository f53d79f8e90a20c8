import { useQuery } from '@tanstack/react-query';
import { orderEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';
import { orderKeys } from './orders.ts';

export const orderPriceQueryKey = (userId: number) => [...orderKeys.all, 'price', userId] as const;

/** GET /admin/order/price: the client shop's price per result and its "detection public" default. */
export const getOrderPrices = (userId: number, signal?: AbortSignal) => api.call(orderEndpoints.price, { query: { userId }, signal });

/** The chosen client shop's prices (the order form fills the amount from them); idle without a shop. */
export const useOrderPrices = (userId: number | null | undefined) =>
  useQuery({
    queryKey: orderPriceQueryKey(userId ?? 0),
    queryFn: ({ signal }) => getOrderPrices(userId ?? 0, signal),
    enabled: typeof userId === 'number' && userId > 0,
    staleTime: 30_000,
  });
