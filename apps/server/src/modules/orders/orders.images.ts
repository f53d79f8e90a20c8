/**
 * An order's evidence as its reader gets it (decision 0082): the stored bare URLs signed for a
 * short while. Only a caller who may see the order reaches this (the list's and the detail's
 * visibility rules decide that first); a list of N orders costs N × images HMACs and no query.
 * And the stored URLs of every order, page by page, for the upload retention sweep (decision 0110).
 */
import { ORDER_IMAGE_KINDS, type OrderImageKind } from '@clearplay/contract';
import type { Db } from '../../db/index.ts';
import { nowMs } from '../../lib/time.ts';
import { signImageList, type EvidenceUrls } from '../uploads/uploads.service.ts';
import { imageColumnsAfter } from './orders.repository.ts';

/**
 * The deadline of links signed at `now`: the lifetime from now, rounded down to the minute when
 * the lifetime allows, so that answers within the same minute hand out the same URLs and the
 * browser's cache serves a list's images again instead of fetching them anew on each reload.
 */
export function linkDeadline(ttlSeconds: number, now: number = nowMs()): number {
  const end = Math.floor(now / 1000) + ttlSeconds;
  return ttlSeconds >= 300 ? end - (end % 60) : end;
}

/** The item with each image kind's URLs signed for (about) `ttlSeconds` from now. */
export function withSignedImages<T extends Record<OrderImageKind, string>>(
  item: T,
  urls: EvidenceUrls,
  ownHost: string | undefined,
  now: number = nowMs(),
): T {
  const deadline = linkDeadline(urls.ttlSeconds, now);
  const signed = { ...item };
  for (const kind of ORDER_IMAGE_KINDS) signed[kind] = signImageList(urls, item[kind], deadline, ownHost) as T[OrderImageKind];
  return signed;
}

/**
 * Every image URL the orders name (certificate, proof and person images), one page of `batch`
 * orders at a time in id order, only their image columns read: what the upload retention sweep
 * must not remove (decision 0062). Lazy: a page is read when the caller asks for it, so a sweep
 * with nothing left to look for reads no further.
 */
export async function* orderImageUrls(db: Db, batch: number): AsyncGenerator<string[]> {
  let lastId = 0;
  for (;;) {
    const rows = await imageColumnsAfter(db, lastId, batch);
    if (rows.length === 0) return;
    const urls: string[] = [];
    for (const row of rows) {
      for (const list of [row.certImages, row.proofImages, row.personCertImages]) {
        for (const url of list.split(',')) if (url !== '') urls.push(url);
      }
    }
    lastId = Number(rows[rows.length - 1]!.id);
    yield urls;
  }
}
