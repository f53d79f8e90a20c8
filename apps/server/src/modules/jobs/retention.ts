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
 *
 * Each module removes its own rows (decision 0110): the queries live with the tables, in the
 * owner's repository, and its service answers `remove…(db, before, batch, signal)` with how many
 * went. This file keeps what is the job's: the settings and the cut-offs they give, the order of
 * the calls (one line per sweep in runRetention; files after the rows that name them), the
 * report and its operation-log row, and the two jobs' schedules (the lease that runs a job in one
 * process at a time is scheduler.ts'). A new sweep is one line there and one field in the report.
 */
import type { Db } from '../../db/index.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, nowMs, toIso } from '../../lib/time.ts';
import { cutBytes, PAYLOAD_MAX_BYTES } from '../../lib/cut-bytes.ts';
import { removeExpiredSessions, removeOldLoginRecords } from '../auth/auth.service.ts';
import { removeExpiredLoginTickets } from '../auth/second-factor.service.ts';
import { recordOperation, removeOldOperationLogs } from '../logs/logs.service.ts';
import { removeOldReadMessages } from '../messages/messages.service.ts';
import { orderImageUrls } from '../orders/orders.service.ts';
import { removeEndedWindows } from '../rate-limit/rate-limit.service.ts';
import { sweepIdempotencyKeys } from '../idempotency/idempotency.service.ts';
import { removeOldClientEvents, removeOldPageViews } from '../tracking/tracking.service.ts';
import { removeUnreferencedUploads, type BlobSweepStore } from '../uploads/uploads.service.ts';
import { avatarUrls } from '../users/users.service.ts';
import type { Job } from './scheduler.ts';
import { logText, storedLog, type LogText } from '../../lib/log-text.ts';

export const RETENTION_JOB = 'retention';
export const UPLOAD_RETENTION_JOB = 'retention-uploads';
/** An expired session is kept this long, so its token answers "expired" for a while. */
export const SESSION_GRACE_MS = DAY_MS;
/** Rows per batch: each batch is one short statement (or transaction) through an index. */
const BATCH = 1000;
/** At most this many old uploads are checked per run (a random sample when there are more). */
const MAX_UPLOAD_CANDIDATES = 50_000;
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

/** A module's sweep of its own rows: removes, batch by batch, those before the cut-off; answers how many went. */
type RowSweep = (db: Db, before: number, batch: number, signal?: AbortSignal) => Promise<number>;

export async function runRetention(db: Db, options: RetentionOptions): Promise<RetentionReport> {
  const now = (options.now ?? nowMs)();
  const batch = options.batchSize ?? BATCH;
  const { signal } = options;
  const rows = options.rows !== false;
  const expired = rows ? now - SESSION_GRACE_MS : null;
  const ended = rows ? now : null;
  const cutoff = rows && options.days > 0 ? now - options.days * DAY_MS : null;
  const messageDays = options.messageDays ?? 0;
  const messageCutoff = rows && messageDays > 0 ? now - messageDays * DAY_MS : null;
  /** Runs one module's sweep; none when its cut-off is null (the part is off, or the setting keeps the rows). */
  const sweep = async (before: number | null, remove: RowSweep): Promise<number> =>
    before === null ? 0 : remove(db, before, batch, signal);

  // The rows, one module's sweep after another, each over its own tables (decision 0110).
  const sessions = await sweep(expired, removeExpiredSessions); // auth
  const loginTickets = await sweep(expired, removeExpiredLoginTickets); // auth, two-step verification
  const rateLimits = await sweep(ended, removeEndedWindows); // rate-limit
  await sweep(ended, sweepIdempotencyKeys); // idempotency: keys past their 24 h (decision 0109)
  const loginRecords = await sweep(cutoff, removeOldLoginRecords); // auth
  const operationLogs = await sweep(cutoff, removeOldOperationLogs); // logs, with their daily counters
  const pageViews = await sweep(cutoff, removeOldPageViews); // tracking
  const clientEvents = await sweep(cutoff, removeOldClientEvents); // tracking
  const messages = await sweep(messageCutoff, removeOldReadMessages); // messages

  // The files, after the rows that name them: the uploads module removes what neither an order nor a user names.
  const uploadKeys =
    options.blobs === null || options.uploadGraceHours === 0
      ? []
      : await removeUnreferencedUploads(options.blobs, {
          graceMs: options.uploadGraceHours * HOUR_MS,
          maxCandidates: options.maxUploadCandidates ?? MAX_UPLOAD_CANDIDATES,
          references: [orderImageUrls(db, batch), avatarUrls(db, batch)],
          signal,
        });
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
