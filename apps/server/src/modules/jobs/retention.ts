/**
 * Retention (decision 0035): what the database and the upload folder stop keeping.
 * - sessions expired more than a day ago (within that day an expired token still answers
 *   "session expired" rather than "not signed in"), and the sign-in tickets of two-step
 *   verification (0017) expired as long ago;
 * - rate-limit windows that have ended (decision 0074): an ended window counts as none;
 * - login records, operation logs, page views and client events older than RETENTION_DAYS
 *   (0 keeps them; the visit statistics' day counters of 0007 stay, decision 0044);
 * - read messages older than RETENTION_MESSAGE_DAYS (0 keeps them), but never an open todo
 *   (decision 0062): unread ones stay whatever their age;
 * - evidence images referenced by no order, and avatars that are no user's avatar, older than
 *   RETENTION_UPLOAD_HOURS (0 keeps them; decision 0062).
 * Rows go in bounded batches, each a short transaction through an index on the filtered
 * column (0001, 0003), so writers are never held up for long; the operation log's daily
 * counters lose exactly the rows that go, in the same transaction. Every run ends with one
 * operation-log row saying what it removed.
 */
import type { Db } from '../../db/index.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, nowMs, toIso } from '../../lib/time.ts';
import { deleteInBatches } from '../../lib/batches.ts';
import { cutBytes, PAYLOAD_MAX_BYTES } from '../../lib/cut-bytes.ts';
import { recordOperation } from '../logs/logs.service.ts';
import { removeEndedWindows } from '../rate-limit/rate-limit.service.ts';
import { sweepIdempotencyKeys } from '../idempotency/idempotency.service.ts';
import { KEY_PREFIX } from '../uploads/keys.ts';
import type { BlobSweepStore } from './blob-sweep.ts';
import type { Job } from './scheduler.ts';
import { logText, storedLog, type LogText } from '../../lib/log-text.ts';

export const RETENTION_JOB = 'retention';
export const UPLOAD_RETENTION_JOB = 'retention-uploads';
/** An expired session is kept this long, so its token answers "expired" for a while. */
export const SESSION_GRACE_MS = DAY_MS;
const BATCH = 1000;
/** At most this many old uploads are checked per run (a random sample when there are more). */
const MAX_UPLOAD_CANDIDATES = 50_000;
/**
 * Keys of uploads the sweep may remove: the evidence images (under `evidence/`, referenced by
 * orders) and the avatars (under `avatar/`, referenced by users.avatar). The reference matching
 * relies on these roots; a prefix outside them would simply never be swept.
 */
const SWEPT_ROOTS = ['evidence/', 'avatar/'];
const SWEPT_PREFIXES = Object.values(KEY_PREFIX)
  .map((p) => `${p}/`)
  .filter((p) => SWEPT_ROOTS.some((root) => p.startsWith(root)));
const KEYS_LOGGED = 50;

export interface RetentionOptions {
  /** Login records and operation logs older than this many days go; 0 keeps them. */
  days: number;
  /** Unreferenced evidence images older than this many hours go; 0 keeps them. */
  uploadGraceHours: number;
  /** Read messages older than this many days go (open todos stay); 0 or absent keeps them. */
  messageDays?: number;
  /** Remove expired sessions, old login records and operation logs (default true). */
  rows?: boolean;
  /** The stored uploads, or null to leave them alone. */
  blobs: BlobSweepStore | null;
  now?: () => number;
  signal?: AbortSignal;
  batchSize?: number;
  maxUploadCandidates?: number;
}

export interface RetentionReport {
  sessions: number;
  /** Expired sign-in tickets of two-step verification. */
  loginTickets: number;
  /** Ended rate-limit windows removed (decision 0074). */
  rateLimits: number;
  loginRecords: number;
  operationLogs: number;
  pageViews: number;
  clientEvents: number;
  /** Read messages removed (decision 0062). */
  messages: number;
  /** Read messages created before this went (null: kept forever). */
  messageCutoff: number | null;
  uploads: number;
  /** The removed upload keys (all of them; the log row names the first few). */
  uploadKeys: string[];
  /** Rows created before this went (null: kept forever). */
  cutoff: number | null;
  /** The run was stopped before it finished (shutdown). */
  aborted: boolean;
}

/**
 * Sessions, or the sign-in tickets of two-step verification, expired before `before`. Tickets
 * have no index on expires_at alone and need none: they live minutes, so the table stays small
 * once this runs, and a scan of it is short.
 */
async function deleteExpired(
  db: Db,
  table: 'sessions' | 'loginTickets',
  before: number,
  batch: number,
  signal?: AbortSignal,
): Promise<number> {
  return deleteInBatches(async () => {
    const rows = await db.selectFrom(table).select('id').where('expiresAt', '<', before).limit(batch).execute();
    if (rows.length === 0) return 0;
    await db
      .deleteFrom(table)
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    return rows.length;
  }, signal);
}

async function deleteOldLoginRecords(db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> {
  return deleteInBatches(async () => {
    const rows = await db.selectFrom('loginRecords').select('id').where('createdAt', '<', before).limit(batch).execute();
    if (rows.length === 0) return 0;
    await db
      .deleteFrom('loginRecords')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    return rows.length;
  }, signal);
}

/** Raw visit rows (page_views_created_idx, client_events_created_idx); their day counters stay. */
async function deleteOldVisitRows(
  db: Db,
  table: 'pageViews' | 'clientEvents',
  before: number,
  batch: number,
  signal?: AbortSignal,
): Promise<number> {
  return deleteInBatches(async () => {
    const rows = await db.selectFrom(table).select('id').where('createdAt', '<', before).limit(batch).execute();
    if (rows.length === 0) return 0;
    await db
      .deleteFrom(table)
      .where(
        'id',
        'in',
        rows.map((r) => Number(r.id)),
      )
      .execute();
    return rows.length;
  }, signal);
}

/**
 * Read messages created before `before` (messages_read_created_idx, 0012); unread ones stay, and
 * so does a todo whose work is not done even when it was read. Reading the box is unaffected:
 * the unread counts and the ETag count unread rows only.
 */
export const oldReadMessagesQuery = (db: Db, before: number, batch: number) =>
  db
    .selectFrom('messages')
    .select('id')
    .where('isRead', '=', 1)
    .where('createdAt', '<', before)
    .where((eb) => eb.or([eb('kind', '<>', 'todo'), eb('doneAt', 'is not', null)]))
    .orderBy('createdAt')
    .orderBy('id')
    .limit(batch);

async function deleteOldReadMessages(db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> {
  return deleteInBatches(async () => {
    const rows = await oldReadMessagesQuery(db, before, batch).execute();
    if (rows.length === 0) return 0;
    await db
      .deleteFrom('messages')
      .where(
        'id',
        'in',
        rows.map((r) => Number(r.id)),
      )
      .where('isRead', '=', 1)
      .execute();
    return rows.length;
  }, signal);
}

/** Operation logs and, in the same transaction, their share of the daily counters. */
async function deleteOldOperationLogs(db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> {
  return deleteInBatches(
    () =>
      writeTransaction(db, async (trx) => {
        const rows = await trx
          .selectFrom('operationLogs')
          .select(['id', 'module', 'action', 'status', 'createdAt'])
          .where('createdAt', '<', before)
          .orderBy('createdAt')
          .orderBy('id')
          .limit(batch)
          .execute();
        if (rows.length === 0) return 0;
        await trx
          .deleteFrom('operationLogs')
          .where(
            'id',
            'in',
            rows.map((r) => Number(r.id)),
          )
          .execute();
        const counts = new Map<string, { module: string; action: string; status: number; day: number; n: number }>();
        for (const row of rows) {
          const day = Math.floor(Number(row.createdAt) / DAY_MS) * DAY_MS;
          const id = JSON.stringify([row.module, row.action, row.status, day]);
          const entry = counts.get(id) ?? { module: row.module, action: row.action, status: row.status, day, n: 0 };
          entry.n += 1;
          counts.set(id, entry);
        }
        for (const c of counts.values()) {
          await trx
            .updateTable('operationLogDaily')
            .set((eb) => ({ n: eb('n', '-', c.n) }))
            .where('module', '=', c.module)
            .where('action', '=', c.action)
            .where('status', '=', c.status)
            .where('day', '=', c.day)
            .execute();
          await trx
            .deleteFrom('operationLogDaily')
            .where('module', '=', c.module)
            .where('action', '=', c.action)
            .where('status', '=', c.status)
            .where('day', '=', c.day)
            .where('n', '<=', 0)
            .execute();
        }
        return rows.length;
      }),
    signal,
  );
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
 * Evidence images and avatars older than the grace period that no order and no user names. The
 * orders are read once, in primary-key batches, and only their image columns, then the users'
 * avatars the same way; a scan cut short deletes nothing.
 */
async function sweepUploads(
  db: Db,
  blobs: BlobSweepStore,
  graceMs: number,
  max: number,
  batch: number,
  signal?: AbortSignal,
): Promise<string[]> {
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
  let lastId = 0;
  while (candidates.size > 0) {
    if (signal?.aborted === true) return [];
    const rows = await db
      .selectFrom('orders')
      .select(['id', 'certImages', 'proofImages', 'personCertImages'])
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(batch)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      for (const list of [row.certImages, row.proofImages, row.personCertImages]) {
        for (const url of list.split(',')) if (url !== '') forgetReferenced(url, candidates);
      }
    }
    lastId = Number(rows[rows.length - 1]!.id);
  }
  let lastUser = 0;
  while (candidates.size > 0) {
    if (signal?.aborted === true) return [];
    const rows = await db.selectFrom('users').select(['id', 'avatar']).where('id', '>', lastUser).orderBy('id').limit(batch).execute();
    if (rows.length === 0) break;
    for (const row of rows) if (row.avatar !== '') forgetReferenced(row.avatar, candidates);
    lastUser = Number(rows[rows.length - 1]!.id);
  }
  const removed: string[] = [];
  for (const key of candidates) {
    if (signal?.aborted === true) break;
    await blobs.delete(key);
    removed.push(key);
  }
  return removed;
}

export async function runRetention(db: Db, options: RetentionOptions): Promise<RetentionReport> {
  const now = (options.now ?? nowMs)();
  const batch = options.batchSize ?? BATCH;
  const { signal } = options;
  const rows = options.rows !== false;
  const cutoff = rows && options.days > 0 ? now - options.days * DAY_MS : null;
  const sessions = rows ? await deleteExpired(db, 'sessions', now - SESSION_GRACE_MS, batch, signal) : 0;
  const loginTickets = rows ? await deleteExpired(db, 'loginTickets', now - SESSION_GRACE_MS, batch, signal) : 0;
  const rateLimits = rows ? await removeEndedWindows(db, now, batch, signal) : 0;
  if (rows) await sweepIdempotencyKeys(db, now, batch, signal); // decision 0109: keys past their 24 h
  const loginRecords = cutoff === null ? 0 : await deleteOldLoginRecords(db, cutoff, batch, signal);
  const operationLogs = cutoff === null ? 0 : await deleteOldOperationLogs(db, cutoff, batch, signal);
  const pageViews = cutoff === null ? 0 : await deleteOldVisitRows(db, 'pageViews', cutoff, batch, signal);
  const clientEvents = cutoff === null ? 0 : await deleteOldVisitRows(db, 'clientEvents', cutoff, batch, signal);
  const messageDays = options.messageDays ?? 0;
  const messageCutoff = rows && messageDays > 0 ? now - messageDays * DAY_MS : null;
  const messages = messageCutoff === null ? 0 : await deleteOldReadMessages(db, messageCutoff, batch, signal);
  const uploadKeys =
    options.blobs === null || options.uploadGraceHours === 0
      ? []
      : await sweepUploads(
          db,
          options.blobs,
          options.uploadGraceHours * HOUR_MS,
          options.maxUploadCandidates ?? MAX_UPLOAD_CANDIDATES,
          batch,
          signal,
        );
  return {
    sessions,
    loginTickets,
    rateLimits,
    loginRecords,
    operationLogs,
    pageViews,
    clientEvents,
    messages,
    messageCutoff,
    uploads: uploadKeys.length,
    uploadKeys,
    cutoff,
    aborted: signal?.aborted === true,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The operation log's line for a run of the rows part, the uploads part, or both. */
export function describeRun(report: RetentionReport, days: number, parts: { rows: boolean; uploads: boolean }, messageDays = 0): string {
  const said: string[] = [];
  if (parts.rows) {
    const older = days > 0 ? ` older than ${plural(days, 'day')}` : '';
    said.push(
      `${plural(report.sessions, 'expired session')}, ${plural(report.rateLimits, 'ended rate-limit window')}, ${plural(report.loginRecords, 'login record')}, ${plural(report.operationLogs, 'operation log')}, ${plural(report.pageViews, 'page view')} and ${plural(report.clientEvents, 'client event')}${older}`,
    );
    if (messageDays > 0) said.push(`${plural(report.messages, 'read message')} older than ${plural(messageDays, 'day')}`);
  }
  if (parts.uploads) said.push(plural(report.uploads, 'unreferenced upload'));
  return `retention: removed ${said.join(', ')}${report.aborted ? ' (stopped early: shutdown)' : ''}`;
}

/** The run's operation-log line as an event (decision 0097), told in the reader's language; `content` keeps describeRun's English. */
export function runLogText(report: RetentionReport, days: number, parts: { rows: boolean; uploads: boolean }, messageDays = 0): LogText {
  const stopped = report.aborted && { key: 'log.text.part.stoppedEarly' as const };
  if (!parts.rows) return logText('log.text.system.retentionUploads', { count: report.uploads }, stopped);
  const { sessions, rateLimits, loginRecords, operationLogs, pageViews, clientEvents } = report;
  return logText(
    'log.text.system.retentionRows',
    { sessions, rateLimits, loginRecords, operationLogs, pageViews, clientEvents },
    days > 0 && { key: 'log.text.part.olderThan', params: { days } },
    messageDays > 0 && { key: 'log.text.part.readMessages', params: { count: report.messages, days: messageDays } },
    stopped,
  );
}

export interface RetentionJobDeps {
  db: Db;
  retention: { days: number; uploadGraceHours: number; intervalMinutes: number; messageDays?: number };
  blobs: BlobSweepStore | null;
  now?: () => number;
}

/** A retention job that runs `options` and writes what it removed (or why it failed) to the operation log. */
function loggedRetentionJob(deps: RetentionJobDeps, name: string, intervalMs: number, part: 'rows' | 'uploads'): Job {
  const now = deps.now ?? nowMs;
  const { days, uploadGraceHours } = deps.retention;
  const messageDays = deps.retention.messageDays ?? 0;
  const base = {
    module: 'system',
    action: 'retention',
    operator: 'system',
    operatorId: null,
    ip: '',
    method: 'JOB',
    path: `job:${name}`,
    userAgent: '',
  };
  return {
    name,
    intervalMs,
    async run(signal) {
      const started = now();
      try {
        const report = await runRetention(deps.db, {
          days,
          uploadGraceHours,
          messageDays,
          rows: part === 'rows',
          blobs: part === 'uploads' ? deps.blobs : null,
          now,
          signal,
        });
        const payload =
          part === 'rows'
            ? {
                sessions: report.sessions,
                loginTickets: report.loginTickets,
                rateLimits: report.rateLimits,
                loginRecords: report.loginRecords,
                operationLogs: report.operationLogs,
                pageViews: report.pageViews,
                clientEvents: report.clientEvents,
                cutoff: report.cutoff === null ? null : toIso(report.cutoff),
                ...(report.messageCutoff === null ? {} : { messages: report.messages, messageCutoff: toIso(report.messageCutoff) }),
              }
            : { uploads: report.uploads, uploadGraceHours, uploadKeys: report.uploadKeys.slice(0, KEYS_LOGGED) };
        await recordOperation(deps.db, {
          ...base,
          content: describeRun(report, days, { rows: part === 'rows', uploads: part === 'uploads' }, messageDays),
          ...storedLog(runLogText(report, days, { rows: part === 'rows', uploads: part === 'uploads' }, messageDays)),
          status: 1,
          durationMs: Math.max(0, Math.round(now() - started)),
          errorMsg: '',
          payload: cutBytes(JSON.stringify(payload), PAYLOAD_MAX_BYTES),
          createdAt: now(),
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await recordOperation(deps.db, {
          ...base,
          content: `retention: ${part === 'rows' ? 'removing old rows' : 'removing unreferenced uploads'} failed`,
          ...storedLog(logText(part === 'rows' ? 'log.text.system.retentionRowsFailed' : 'log.text.system.retentionUploadsFailed')),
          status: 0,
          durationMs: Math.max(0, Math.round(now() - started)),
          errorMsg: message.slice(0, 512),
          payload: '',
          createdAt: now(),
        }).catch(() => undefined);
        throw error;
      }
    },
  };
}

/** Expired sessions, ended rate-limit windows, old login records, operation logs, page views, client events and read messages, every RETENTION_INTERVAL_MINUTES. */
export const retentionJob = (deps: RetentionJobDeps): Job =>
  loggedRetentionJob(deps, RETENTION_JOB, deps.retention.intervalMinutes * MINUTE_MS, 'rows');

/**
 * Unreferenced evidence images and avatars. Each run reads every order's image columns, so it runs once per
 * grace period, at most daily, and never more often than the rows job.
 */
export function uploadRetentionJob(deps: RetentionJobDeps): Job {
  const every = Math.max(deps.retention.intervalMinutes * MINUTE_MS, Math.min(deps.retention.uploadGraceHours, 24) * HOUR_MS);
  return loggedRetentionJob(deps, UPLOAD_RETENTION_JOB, every, 'uploads');
}
