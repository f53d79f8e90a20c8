import type { EventBody, PageViewBody } from '@clearplay/contract';
import type { Db } from '../../db/index.ts';
import { nowMs } from '../../lib/time.ts';
import * as repo from './tracking.repository.ts';

/** Event data is kept as JSON text, cut at this many characters. */
export const EVENT_DATA_MAX = 4096;

export interface Visitor {
  userId: number | null;
  ip: string;
  userAgent: string;
}

export async function recordPageView(db: Db, body: PageViewBody, visitor: Visitor): Promise<void> {
  await repo.insertPageView(db, {
    userId: visitor.userId,
    path: body.path,
    userAgent: (body.userAgent ?? visitor.userAgent).slice(0, 512),
    referrer: body.referrer ?? '',
    ip: visitor.ip,
    createdAt: nowMs(),
  });
}

export async function recordEvent(db: Db, body: EventBody, visitor: Visitor): Promise<void> {
  const now = nowMs();
  const data = body.data === undefined ? '' : JSON.stringify(body.data).slice(0, EVENT_DATA_MAX);
  await repo.insertEvent(db, { userId: visitor.userId, event: body.event, data, clientTime: body.timestamp ?? now, createdAt: now });
}

/** The user's recently visited pages: the latest visit per distinct path, newest first. */
export async function recentlyVisited(db: Db, userId: number, limit: number): Promise<{ path: string; visitedAt: string }[]> {
  const rows = await repo.latestPathsOf(db, userId, limit);
  return rows.map((r) => ({ path: r.path, visitedAt: new Date(Number(r.at)).toISOString() }));
}
