/**
 * The upload retention sweep (decisions 0035, 0062): evidence images and avatars older than the
 * grace period that nothing names any more go. Which rows name an upload is their owners' to say
 * (the orders' image columns, the users' avatars); the retention job hands their URLs in, page by
 * page, and calls this after the rows part, so a file goes only once no row references it.
 */
import { KEY_PREFIX } from '../keys.ts';
import type { BlobSweepStore } from './blob-sweep.ts';

/**
 * Keys of uploads the sweep may remove: the evidence images (under `evidence/`, referenced by
 * orders) and the avatars (under `avatar/`, referenced by users.avatar). The reference matching
 * relies on these roots; a prefix outside them would simply never be swept.
 */
const SWEPT_ROOTS = ['evidence/', 'avatar/'];
const SWEPT_PREFIXES = Object.values(KEY_PREFIX)
  .map((p) => `${p}/`)
  .filter((p) => SWEPT_ROOTS.some((root) => p.startsWith(root)));

export interface UnreferencedSweep {
  /** Uploads younger than this (milliseconds since written) stay. */
  graceMs: number;
  /** At most this many old uploads are checked per run (a random sample when there are more). */
  maxCandidates: number;
  /**
   * The URLs that name uploads, each source page by page, read in the order given; a source is read
   * only while some candidate is still unnamed, so one with nothing left to look for costs no query.
   */
  references: readonly AsyncIterable<string[]>[];
  signal?: AbortSignal | undefined;
}

/**
 * Forgets every candidate key that `url` names: its path ends in `/<key>` (or is the key).
 * Candidates all start with one of SWEPT_ROOTS, so only suffixes starting there are looked up.
 */
function forgetReferenced(url: string, candidates: Set<string>): void {
  let path = url.trim();
  const cut = path.search(/[?#]/);
  if (cut !== -1) path = path.slice(0, cut);
  if (path.includes('%')) {
    try {
      path = decodeURIComponent(path);
    } catch {
      // not percent-encoded after all: compare it as it is
    }
  }
  for (const root of SWEPT_ROOTS) {
    for (let i = path.indexOf(root); i !== -1; i = path.indexOf(root, i + 1)) {
      if (i === 0 || path[i - 1] === '/') candidates.delete(path.slice(i));
    }
  }
}

/**
 * Removes the evidence images and avatars older than the grace period that no reference names, and
 * answers their keys. The references are read once, page by page; a run stopped (signal) before the
 * reading is done deletes nothing.
 */
export async function removeUnreferencedUploads(blobs: BlobSweepStore, sweep: UnreferencedSweep): Promise<string[]> {
  const { graceMs, maxCandidates: max, signal } = sweep;
  const sample: string[] = [];
  let seen = 0;
  for await (const blob of blobs.list()) {
    if (signal?.aborted === true) return [];
    if (blob.ageMs < graceMs || !SWEPT_PREFIXES.some((p) => blob.key.startsWith(p))) continue;
    seen += 1;
    // Reservoir sampling: with more old uploads than `max`, each run checks a fair random share.
    if (sample.length < max) sample.push(blob.key);
    else {
      const slot = Math.floor(Math.random() * seen);
      if (slot < max) sample[slot] = blob.key;
    }
  }
  const candidates = new Set(sample);
  for (const source of sweep.references) {
    const pages = source[Symbol.asyncIterator]();
    try {
      while (candidates.size > 0) {
        if (signal?.aborted === true) return [];
        const page = await pages.next();
        if (page.done === true) break;
        for (const url of page.value) forgetReferenced(url, candidates);
      }
    } finally {
      await pages.return?.();
    }
  }
  const removed: string[] = [];
  for (const key of candidates) {
    if (signal?.aborted === true) break;
    await blobs.delete(key);
    removed.push(key);
  }
  return removed;
}
