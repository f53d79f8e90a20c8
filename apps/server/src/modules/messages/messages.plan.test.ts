import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '../../db/dialect.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { analyze, planOf } from '../../test/plans.ts';
import * as repo from './messages.repository.ts';

/**
 * Decision 0063: the unread counts (the bell's poll, its ETag, the list's tab counts) are read
 * from the index (user_id, is_read, kind, created_at, id) alone — one range of the caller's
 * unread entries, no table rows — rather than kept in counter rows. These plans are the proof on
 * each database (TEST_DB); the bench measures it at 1,000,000 messages.
 */

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  const rows = [];
  for (let i = 0; i < 600; i++)
    rows.push({
      userId: (i % 6) + 1,
      kind: (['message', 'notice', 'todo'] as const)[Math.floor(i / 6) % 3]!,
      event: 'order.created',
      params: '{}',
      targetType: null,
      targetId: null,
      isRead: Math.floor(i / 6) % 4 === 0 ? 0 : 1, // 25 unread of each user's 100
      readAt: null,
      doneAt: null,
      dedupeKey: null,
      createdAt: 1_700_000_000_000 + i * 60_000,
    });
  await repo.insertMessages(ctx.db, rows);
  await analyze(ctx.db, 'messages');
});
afterAll(() => ctx?.destroy());

/** What each database says when one index answers a query without reading the table. */
function expectIndexOnly(plan: string, index: string): void {
  switch (dialectOf(ctx.db)) {
    case 'sqlite':
      expect(plan).toContain(`USING COVERING INDEX ${index}`);
      expect(plan).not.toMatch(/SCAN messages\b(?! USING)/);
      break;
    case 'postgres':
      expect(plan).toContain(`Index Only Scan using ${index}`);
      break;
    case 'mysql':
      expect(plan).toContain(`key=${index}`);
      expect(plan).toContain('Using index');
      break;
  }
}

describe('unread counts without scanning (decision 0063)', () => {
  it('the unread counts per kind and the newest unread id: one range of the read-state index, index only', async () => {
    expectIndexOnly(await planOf(ctx.db, repo.unreadQuery(ctx.db, 3)), 'messages_user_read_kind_idx');
    // and the answer is right
    const counts = await repo.unreadByKind(ctx.db, 3);
    expect(counts.map((c) => c.kind).sort()).toEqual(['message', 'notice', 'todo']);
    expect(counts.reduce((n, c) => n + c.n, 0)).toBe(25);
  });

  it("a tab's unread total the same way", async () => {
    expectIndexOnly(await planOf(ctx.db, repo.countQuery(ctx.db, { userId: 3, kind: 'todo', isRead: 0 })), 'messages_user_read_kind_idx');
  });
});
