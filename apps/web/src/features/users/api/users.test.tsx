// In the components project (jsdom): the subscription dialog's call through the real API client,
// against the fake API (decision 0109).
import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { SetSubscriptionBody } from '@clearplay/contract';
import { IDEMPOTENCY_KEY_PATTERN } from '@clearplay/contract/constants';
import { describe, expect, it } from 'vitest';
import { idempotencyKeyOf as keyOf, serveApiDropping } from '../../../test/fake-api.ts';
import { useSetSubscription } from './users.ts';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('a renewal submission', () => {
  it('sent again after a lost answer goes with the same Idempotency-Key, so it extends once', async () => {
    const api = serveApiDropping(1, { id: 7 });
    const { result } = renderHook(() => useSetSubscription(), { wrapper });
    const body: SetSubscriptionBody = { userId: 7, type: 'monthly' };
    await act(async () => {
      await expect(result.current.mutateAsync(body)).rejects.toThrow();
    });
    await act(async () => {
      await result.current.mutateAsync(body);
    });
    const keys = api.calls.map(keyOf);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(keys[1]).toBe(keys[0]);
  });
});
