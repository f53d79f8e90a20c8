/**
 * Idempotency keys of the creates that move money (decision 0109): one key per submission of a
 * form, sent as the `Idempotency-Key` header (the API client's `idempotencyKey`). The same
 * submission sent again (a retry after a lost answer, a second click while the first is on its
 * way) goes with the same key, so the server records it once; a new submission gets a new key.
 */

/**
 * A new key: 128 random bits as 22 base64url characters. crypto.getRandomValues, not
 * randomUUID: the back office may be served over plain http on a LAN, where randomUUID is missing.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The keys of one form: see `send`. */
export interface SubmissionKeys {
  /**
   * Sends `body` with its submission's key: the last key while the body is the same as the last
   * one sent and that one has not succeeded yet; a new key otherwise. After a success, the next
   * send (another order with the same fields is a new order) gets a new key.
   */
  send<T>(body: unknown, call: (idempotencyKey: string) => Promise<T>): Promise<T>;
}

export function submissionKeys(newKey: () => string = newIdempotencyKey): SubmissionKeys {
  let current: { body: string; key: string } | null = null;
  return {
    async send(body, call) {
      const text = JSON.stringify(body);
      if (current === null || current.body !== text) current = { body: text, key: newKey() };
      const { key } = current;
      const result = await call(key);
      if (current?.key === key) current = null;
      return result;
    },
  };
}
