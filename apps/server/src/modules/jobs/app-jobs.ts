/**
 * The app's periodic jobs, started by server.ts after listen and stopped on shutdown (never
 * in tests unless a test starts them). Add a job here: it gets its own lease row and runs in
 * one process at a time (scheduler.ts).
 */
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { localBlobSweepStore } from './blob-sweep.ts';
import { retentionJob, uploadRetentionJob } from './retention.ts';
import { startJobs, type JobLogger, type JobRunner } from './scheduler.ts';

export function startAppJobs(deps: { db: Db; config: Pick<AppConfig, 'dataDir' | 'retention'>; log?: JobLogger }): JobRunner {
  const { db, config } = deps;
  const retention = { db, retention: config.retention, blobs: localBlobSweepStore(config.dataDir) };
  const jobs = [retentionJob(retention)];
  if (config.retention.uploadGraceHours > 0) jobs.push(uploadRetentionJob(retention));
  return startJobs({ db, jobs, ...(deps.log === undefined ? {} : { log: deps.log }) });
}
