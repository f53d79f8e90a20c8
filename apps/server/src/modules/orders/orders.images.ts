/**
 * An order's evidence as its reader gets it (decision 0082): the stored bare URLs signed for a
 * short while. Only a caller who may see the order reaches this (the list's and the detail's
 * visibility rules decide that first); a list of N orders costs N × images HMACs and no query.
 */
import { ORDER_IMAGE_KINDS, type OrderImageKind } from '@clearplay/contract';
import { nowMs } from '../../lib/time.ts';
import { signImageList, type EvidenceUrls } from '../uploads/uploads.service.ts';

/** The item with each image kind's URLs signed until `ttlSeconds` from now. */
export function withSignedImages<T extends Record<OrderImageKind, string>>(
  item: T,
  urls: EvidenceUrls,
  ownHost: string | undefined,
  now: number = nowMs(),
): T {
  const deadline = Math.floor(now / 1000) + urls.ttlSeconds;
  const signed = { ...item };
  for (const kind of ORDER_IMAGE_KINDS) signed[kind] = signImageList(urls, item[kind], deadline, ownHost) as T[OrderImageKind];
  return signed;
}
