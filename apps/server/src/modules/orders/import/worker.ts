/**
 * The order import's worker thread (thread.ts starts it): connections of its own to the app's
 * database (on SQLite the same file), and the same steps as the import had on the request thread
 * (readSheet, then orders.import.ts importOrders, in one transaction). Each job is one uploaded
 * file; the answer is the import's result, or its error as thread.ts rebuilds it. The import's
 * work (parsing, checking, SQLite's synchronous writes) runs here, so the request thread keeps
 * answering.
 *
 * A thread that ends mid-import (a crash, the server stopping) never commits: its connections
 * close with the transaction open, and the database drops what it had written.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DbLimits, DbTarget } from '../../../config.ts';
import { createDb } from '../../../db/index.ts';
import type { Operator } from '../../../http/route-context.ts';
import { AppError, FieldAppError } from '../../../lib/errors.ts';
import type { Locale } from '../../../lib/messages.ts';
import type { Guard } from '../../idempotency/idempotency.service.ts';
import { importOrders } from './orders.import.ts';
import { readSheet } from './read.ts';

export interface ImportWorkerData {
  target: DbTarget;
  limits: DbLimits;
}

export interface ImportJob {
  id: number;
  data: Uint8Array;
  op: Operator;
  locale: Locale;
  keepValid: boolean;
  /** The Idempotency-Key's claim, claimed in the import's transaction (decision 0109); null without one. */
  guard: Guard | null;
}

/** An error as it crosses threads: a domain error by its key, any other by its name, message and code. */
export type ThreadError =
  | { kind: 'app'; status: number; key: string; params: Record<string, unknown>; data: Record<string, unknown> | null; field?: string }
  | { kind: 'other'; name: string; message: string; code?: unknown; stack?: string };

export type ImportAnswer = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ThreadError };

export function threadError(error: unknown): ThreadError {
  if (error instanceof AppError) {
    return {
      kind: 'app',
      status: error.status,
      key: error.key,
      params: { ...error.params },
      data: error.data,
      ...(error instanceof FieldAppError ? { field: error.field } : {}),
    };
  }
  const { name, message, code, stack } = (error ?? {}) as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown };
  return {
    kind: 'other',
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : String(error),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(typeof stack === 'string' ? { stack } : {}),
  };
}

const port = parentPort;
if (port !== null) {
  const { target, limits } = workerData as ImportWorkerData;
  const db = createDb(target, limits);
  port.on('message', (job: ImportJob) => {
    void (async (): Promise<ImportAnswer> => {
      try {
        const data = Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength);
        const sheet = await readSheet(data);
        return { id: job.id, ok: true, result: await importOrders(db, sheet, job.op, job.locale, job.keepValid, job.guard) };
      } catch (error) {
        return { id: job.id, ok: false, error: threadError(error) };
      }
    })().then((answer) => port.postMessage(answer));
  });
}
