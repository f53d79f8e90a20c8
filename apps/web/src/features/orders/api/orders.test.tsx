// In the components project (jsdom): the order form's create through the real API client,
// against the fake API (decision 0109).
import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { OrderCreateBody } from '@clearplay/contract';
import { IDEMPOTENCY_KEY_PATTERN } from '@clearplay/contract/constants';
import { describe, expect, it } from 'vitest';
import { idempotencyKeyOf as keyOf, serveApiDropping } from '../../../test/fake-api.ts';
import { useCreateOrder } from './orders.ts';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const ORDER = { objWechat: 'wx', gameName: 'CS2', result: 1, userId: 7, inspectorId: 3, amount: 3000 } as unknown as OrderCreateBody;
const ANSWER = { id: 1, code: 'X' };

describe('an order submission', () => {
  it('sent again after its answer was lost goes with the same Idempotency-Key; the next submission with a new one', async () => {
    const api = serveApiDropping(1, ANSWER);
    const { result } = renderHook(() => useCreateOrder(), { wrapper });
    await act(async () => {
      await expect(result.current.mutateAsync(ORDER)).rejects.toThrow();
    });
    await act(async () => {
      await result.current.mutateAsync(ORDER);
    });
    expect(api.calls).toHaveLength(2);
    const [lost, retried] = api.calls;
    expect(keyOf(lost)).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(keyOf(retried)).toBe(keyOf(lost));

    // Succeeded: the same fields again are another order, so another key.
    await act(async () => {
      await result.current.mutateAsync(ORDER);
    });
    expect(keyOf(api.calls[2])).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(keyOf(api.calls[2])).not.toBe(keyOf(lost));
  });

  it('sent twice at once (a double click) goes with one key', async () => {
    const api = serveApiDropping(0, ANSWER);
    const { result } = renderHook(() => useCreateOrder(), { wrapper });
    await act(async () => {
      await Promise.all([result.current.mutateAsync(ORDER), result.current.mutateAsync(ORDER)]);
    });
    expect(api.calls).toHaveLength(2);
    expect(keyOf(api.calls[1])).toBe(keyOf(api.calls[0]));
  });

  it('changed after a failure is another submission, with another key', async () => {
    const api = serveApiDropping(1, ANSWER);
    const { result } = renderHook(() => useCreateOrder(), { wrapper });
    await act(async () => {
      await expect(result.current.mutateAsync(ORDER)).rejects.toThrow();
    });
    await act(async () => {
      await result.current.mutateAsync({ ...ORDER, objWechat: 'someone_else' });
    });
    expect(keyOf(api.calls[1])).not.toBe(keyOf(api.calls[0]));
  });

  it('of another form (a new dialog) has its own key', async () => {
    const api = serveApiDropping(0, ANSWER);
    const first = renderHook(() => useCreateOrder(), { wrapper });
    const second = renderHook(() => useCreateOrder(), { wrapper });
    await act(async () => {
      await Promise.all([first.result.current.mutateAsync(ORDER), second.result.current.mutateAsync(ORDER)]);
    });
    expect(keyOf(api.calls[1])).not.toBe(keyOf(api.calls[0]));
  });
});
