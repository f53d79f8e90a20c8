import type { OrderImportResult } from '@clearplay/contract';
import { logText, type LogText } from '../../../lib/log-text.ts';

/**
 * What an import did, recorded as data on its operation-log row (`details`), so a reader (the
 * monitor's latest imports) need not read the English line. An all-or-nothing import refused
 * for a rejected row answers 200 and writes nothing: `written` 0, `rejected` above 0.
 */
export interface ImportLogDetails {
  /** Data rows read (the header not counted). */
  rows: number;
  /** Orders written. */
  written: number;
  /** Rows rejected. */
  rejected: number;
  /** Whether the valid rows were kept beside the rejected ones. */
  keepValid: boolean;
}

export const importLogDetails = (result: OrderImportResult): ImportLogDetails => ({
  rows: result.total,
  written: result.imported,
  rejected: result.rejected.length,
  keepValid: result.keepValid,
});

/** The import's operation-log line (decision 0097): its file and counts, told in the reader's language. */
export const importLogText = (name: string, result: OrderImportResult, keepValid: boolean): LogText =>
  logText(
    'log.text.order.imported',
    { name, total: result.total, imported: result.imported, rejected: result.rejected.length },
    keepValid && { key: 'log.text.part.validKept' },
  );

const count = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** The details of a log row's JSON; null when it has none (written before they were recorded) or not of this shape. */
export function readImportLogDetails(json: string | null): ImportLogDetails | null {
  if (json === null || json === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const { rows, written, rejected, keepValid } = value as Record<string, unknown>;
  if (!count(rows) || !count(written) || !count(rejected) || typeof keepValid !== 'boolean') return null;
  return { rows, written, rejected, keepValid };
}
