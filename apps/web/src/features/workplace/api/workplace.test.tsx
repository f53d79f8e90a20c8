// The workplace's data, asked for by its route's loader (prefetchWorkplace, decision 0117): one
// call per visit, whether the page mounts while it is under way or after it answered.
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { serveApi } from '../../../test/fake-api.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { prefetchWorkplace, useWorkplace } from './workplace.ts';

function Balance() {
  const query = useWorkplace();
  return <div data-testid="balance">{query.data ? String((query.data as { balance: number }).balance) : 'loading'}</div>;
}

const show = () =>
  render(
    <QueryClientProvider client={queryClient}>
      <Balance />
    </QueryClientProvider>,
  );

/** A fake API answering GET /api/admin/workplace with a balance that grows by 1 per call. */
function serveWorkplace(hold?: Promise<void>) {
  let balance = 100;
  const api = serveApi(async (call) => {
    if (call.path !== '/api/admin/workplace') return { status: 404, msg: 'not here', data: null };
    await hold;
    return { status: 200, msg: 'ok', data: { balance: balance++ } };
  });
  return { calls: () => api.calls.filter((c) => c.path === '/api/admin/workplace').length };
}

afterEach(() => queryClient.clear());

describe('the workplace data, prefetched by its route', () => {
  it('the page shows what the loader fetched, without asking again', async () => {
    const api = serveWorkplace();
    prefetchWorkplace();
    await waitFor(() => expect(queryClient.getQueryState(['workplace'])?.status).toBe('success'));
    show();
    expect(screen.getByTestId('balance').textContent).toBe('100');
    // Give a refetch on mount every chance to happen.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.calls()).toBe(1);
    expect(screen.getByTestId('balance').textContent).toBe('100');
  });

  it('a page mounting while the call is under way shares it', async () => {
    let release = () => undefined as void;
    const api = serveWorkplace(new Promise<void>((resolve) => (release = resolve)));
    prefetchWorkplace();
    show();
    expect(screen.getByTestId('balance').textContent).toBe('loading');
    release();
    expect(await screen.findByText('100')).toBeTruthy();
    expect(api.calls()).toBe(1);
  });

  it('a later visit asks again, and the loader leaves it to the page when something is cached', async () => {
    const api = serveWorkplace();
    prefetchWorkplace();
    await waitFor(() => expect(queryClient.getQueryState(['workplace'])?.status).toBe('success'));
    const first = show();
    first.unmount();
    // Back on the workplace: the loader does not ask (the cache has it), the page does, showing the cached figure meanwhile.
    prefetchWorkplace();
    show();
    expect(screen.getByTestId('balance').textContent).toBe('100');
    expect(await screen.findByText('101')).toBeTruthy();
    expect(api.calls()).toBe(2);
  });
});
