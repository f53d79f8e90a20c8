import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LedgerQuery, RechargeBody } from '@clearplay/contract';
import { ledgerEndpoints } from '@clearplay/contract/constants';
import { useState } from 'react';
import { api } from '../../../lib/api-client.ts';
import { submissionKeys } from '../../../lib/submission-key.ts';

/** Query keys of the shop ledgers: a recharge invalidates `ledgerKeys.all`. */
export const ledgerKeys = {
  all: ['ledger'] as const,
  user: (userId: number) => [...ledgerKeys.all, userId] as const,
  page: (query: LedgerQuery) => [...ledgerKeys.user(query.userId), { page: query.page, pageSize: query.pageSize }] as const,
};

/** GET /admin/user/ledger: one page of a shop's ledger (newest first) and its balance. */
export const getLedger = (query: LedgerQuery, signal?: AbortSignal) => api.call(ledgerEndpoints.ledger, { query, signal });

/**
 * One page of the ledger of `userId` (idle while null). While the next page of the same shop
 * loads, the previous one stays on screen; another shop never shows the last shop's rows.
 */
export const useLedger = (userId: number | null, page: number, pageSize: number) =>
  useQuery({
    queryKey: ledgerKeys.page({ userId: userId ?? 0, page, pageSize }),
    queryFn: ({ signal }) => getLedger({ userId: userId ?? 0, page, pageSize }, signal),
    enabled: userId !== null,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === userId ? previous : undefined),
  });

/**
 * POST /admin/user/recharge: records money received from a shop; refreshes its ledger. The same
 * submission sent again goes with the same Idempotency-Key, so it is credited once (decision 0109).
 */
export function useRecharge() {
  const queryClient = useQueryClient();
  const [keys] = useState(submissionKeys);
  return useMutation({
    mutationFn: (body: RechargeBody) => keys.send(body, (idempotencyKey) => api.call(ledgerEndpoints.recharge, { body, idempotencyKey })),
    onSuccess: (_, body) => queryClient.invalidateQueries({ queryKey: ledgerKeys.user(body.userId) }),
  });
}
