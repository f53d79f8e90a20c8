// In the components project (jsdom): the import dialog's upload through the real API client,
// against the fake API (decisions 0109, 0118).
import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_PATTERN } from '@clearplay/contract/constants';
import { describe, expect, it } from 'vitest';
import { idempotencyKeyOf as keyOf, serveApiDropping } from '../../../test/fake-api.ts';
import { useImportOrders } from './import-orders.ts';

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const RESULT = { total: 2, imported: 0, rejected: [], keepValid: false };
const sheet = (text = 'a,b\r\n1,2\r\n', lastModified = 1_700_000_000_000) =>
  new File([text], 'orders.csv', { type: 'text/csv', lastModified });

describe('an order import', () => {
  it('sent again after its answer was lost goes with the same Idempotency-Key; the next import with a new one', async () => {
    const api = serveApiDropping(1, RESULT);
    const { result } = renderHook(() => useImportOrders(), { wrapper });
    const file = sheet();
    await act(async () => {
      await expect(result.current.mutateAsync({ file, keepValid: false })).rejects.toThrow();
    });
    // The same file picked again unchanged is the same submission.
    await act(async () => {
      await result.current.mutateAsync({ file: sheet(), keepValid: false });
    });
    expect(api.calls).toHaveLength(2);
    const [lost, retried] = api.calls;
    expect(lost?.path).toBe('/api/admin/order/import');
    expect(keyOf(lost)).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(keyOf(retried)).toBe(keyOf(lost));

    // Succeeded: the same file again is another import, so another key.
    await act(async () => {
      await result.current.mutateAsync({ file, keepValid: false });
    });
    expect(keyOf(api.calls[2])).toMatch(IDEMPOTENCY_KEY_PATTERN);
    expect(keyOf(api.calls[2])).not.toBe(keyOf(lost));
  });

  it('with another file or option after a failure is another submission, with another key', async () => {
    const api = serveApiDropping(2, RESULT);
    const { result } = renderHook(() => useImportOrders(), { wrapper });
    await act(async () => {
      await expect(result.current.mutateAsync({ file: sheet(), keepValid: false })).rejects.toThrow();
    });
    await act(async () => {
      await expect(result.current.mutateAsync({ file: sheet(), keepValid: true })).rejects.toThrow();
    });
    await act(async () => {
      await result.current.mutateAsync({ file: sheet('a,b\r\n1,2\r\n3,4\r\n'), keepValid: true });
    });
    const keys = api.calls.map(keyOf);
    expect(new Set(keys).size).toBe(3);
  });
});
