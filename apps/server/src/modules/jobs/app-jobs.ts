/**
 * The app's periodic jobs, started by server.ts after listen and stopped on shutdown (never
 * in tests unless a test starts them). Add a job here: it gets its own lease row and runs in
 * one process at a time (scheduler.ts).
 */
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { MINUTE_MS } from '../../lib/time.ts';
import { sendSubscriptionReminders } from '../messages/messages.service.ts';
import { localBlobSweepStore } from '../uploads/uploads.service.ts';
import { retentionJob, uploadRetentionJob } from './retention.ts';
import { startJobs, type Job, type JobLogger, type JobRunner } from './scheduler.ts';

export const REMINDER_JOB = 'subscription-reminders';

/**
 * Subscription reminders: shops whose service ends within 7 days or has ended, and
 * the staff's renewal todos. Written once per shop and end (dedupe keys), however often it runs.
 */
export const reminderJob = (db: Db, log?: JobLogger): Job => ({
  name: REMINDER_JOB,
  intervalMs: 30 * MINUTE_MS,
  run: async () => {
    const written = await sendSubscriptionReminders(db);
    if (written > 0) log?.info({ job: REMINDER_JOB, written }, 'subscription reminders written');
  },
});

export function startAppJobs(deps: {
  db: Db;
  config: Pick<AppConfig, 'dataDir' | 'uploadsDir' | 'retention'>;
  log?: JobLogger;
}): JobRunner {
  const { db, config } = deps;
  const retention = { db, retention: config.retention, blobs: localBlobSweepStore(config.dataDir, config.uploadsDir) };
  const jobs = [retentionJob(retention), reminderJob(db, deps.log)];
  if (config.retention.uploadGraceHours > 0) jobs.push(uploadRetentionJob(retention));
  return startJobs({ db, jobs, ...(deps.log === undefined ? {} : { log: deps.log }) });
}
