// In the components project (jsdom): the recharge dialog's call through the real API client,
// against the fake API (decision 0109).
import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { RechargeBody } from '@clearplay/contract';
import { IDEMPOTENCY_KEY_PATTERN } from '@clearplay/contract/constants';
import { describe, expect, it } from 'vitest';
import { idempotencyKeyOf as keyOf, serveApiDropping } from '../../../test/fake-api.ts';
import { useRecharge } from './ledger.ts';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('a recharge submission', () => {
  it('sent again after lost answers goes with the same Idempotency-Key, so it is credited once', async () => {
    const api = serveApiDropping(2, { entry: {}, balance: 5000 });
    const { result } = renderHook(() => useRecharge(), { wrapper });
    const body: RechargeBody = { userId: 7, amount: 5000 };
    for (let i = 0; i < 2; i++) {
      await act(async () => {
        await expect(result.current.mutateAsync(body)).rejects.toThrow();
      });
    }
    await act(async () => {
      await result.current.mutateAsync(body);
    });
    const keys = api.calls.map(keyOf);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(new Set(keys).size).toBe(1);
  });
});
