// In the components project (jsdom): the keys, and the API client's header (decision 0109).
import { IDEMPOTENCY_KEY_PATTERN } from '@clearplay/contract/constants';
import { describe, expect, it } from 'vitest';
import { idempotencyKeyOf as keyOf, serveApiDropping } from '../test/fake-api.ts';
import { api } from './api-client.ts';
import { newIdempotencyKey, submissionKeys } from './submission-key.ts';

describe('idempotency keys', () => {
  it('are random and fit the server’s pattern', () => {
    const made = new Set(Array.from({ length: 100 }, newIdempotencyKey));
    expect(made.size).toBe(100);
    for (const key of made) expect(key).toMatch(IDEMPOTENCY_KEY_PATTERN);
  });

  it('go as the Idempotency-Key header when given, and no header otherwise', async () => {
    const server = serveApiDropping(0);
    const keys = submissionKeys(() => 'fixed-key-0001');
    await api.post('/admin/order/create', { a: 1 });
    await keys.send({ a: 1 }, (idempotencyKey) => api.post('/admin/order/create', { a: 1 }, { idempotencyKey }));
    expect(keyOf(server.calls[0])).toBeUndefined();
    expect(keyOf(server.calls[1])).toBe('fixed-key-0001');
  });

  it('of one submission stay the same until it succeeds', async () => {
    let made = 0;
    const keys = submissionKeys(() => `key-${++made}`);
    const sent: string[] = [];
    const failing = (key: string) => {
      sent.push(key);
      return Promise.reject(new Error('lost'));
    };
    const succeeding = (key: string) => {
      sent.push(key);
      return Promise.resolve(key);
    };
    await expect(keys.send({ a: 1 }, failing)).rejects.toThrow();
    await expect(keys.send({ a: 1 }, succeeding)).resolves.toBe('key-1');
    await keys.send({ a: 1 }, succeeding); // a new submission
    await expect(keys.send({ a: 2 }, failing)).rejects.toThrow();
    await keys.send({ a: 3 }, succeeding); // changed: another submission
    expect(sent).toEqual(['key-1', 'key-1', 'key-2', 'key-3', 'key-4']);
  });
});
