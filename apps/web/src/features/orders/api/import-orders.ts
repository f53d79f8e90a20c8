import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportRejectedRow, OrderImportResult } from '@clearplay/contract';
import { neutraliseFormula, orderEndpoints } from '@clearplay/contract/constants';
import { useState } from 'react';
import { api } from '../../../lib/api-client.ts';
import { submissionKeys } from '../../../lib/submission-key.ts';
import { orderKeys } from './orders.ts';

/** The file types the import takes (the server reads xlsx and csv). */
export const IMPORT_ACCEPT = '.xlsx,.csv';

export const isImportFile = (name: string): boolean => /\.(xlsx|csv)$/i.test(name);

/** GET /admin/order/import/template: the xlsx template, headers in the current language. */
export const downloadImportTemplate = (fallbackName: string) => api.download(orderEndpoints.importTemplate, { fallbackName });

/**
 * POST /admin/order/import?keepValid=: all-or-nothing unless `keepValid`. With `idempotencyKey`
 * (decision 0118), the same upload sent again with the key is answered again, not imported twice.
 */
export function importOrders(
  file: File,
  keepValid: boolean,
  options: { signal?: AbortSignal; idempotencyKey?: string } = {},
): Promise<OrderImportResult> {
  const body = new FormData();
  body.append('file', file, file.name);
  return api.call(orderEndpoints.import, { body, query: { keepValid }, ...options });
}

/**
 * What makes two imports of the dialog the same submission: the file as picked (its name, size,
 * type and time; a file picked again unchanged is the same one) and the option.
 */
const submissionOf = (file: File, keepValid: boolean) => ({
  name: file.name,
  size: file.size,
  type: file.type,
  lastModified: file.lastModified,
  keepValid,
});

/**
 * The import as a mutation: one Idempotency-Key per submission (lib/submission-key.ts), the same
 * on a retry of the same file and option until one succeeds. When anything was imported, every
 * order query is refreshed.
 */
export function useImportOrders() {
  const queryClient = useQueryClient();
  const [keys] = useState(submissionKeys);
  return useMutation({
    mutationFn: ({ file, keepValid }: { file: File; keepValid: boolean }) =>
      keys.send(submissionOf(file, keepValid), (idempotencyKey) => importOrders(file, keepValid, { idempotencyKey })),
    onSuccess: async (result) => {
      if (result.imported > 0) await queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
  });
}

// ── The rejected-rows report (built in the browser from the import's answer) ──

/** RFC 4180 quoting: a cell with a comma, a quote or a line break is quoted, quotes doubled. */
export function quoteCsvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The value columns of the report: every header seen in the rejected rows, in first-seen order. */
export function rejectedColumns(rows: readonly ImportRejectedRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row.values)) seen.add(key);
  return [...seen];
}

/**
 * The rejected rows as CSV text: the row number, the reasons (one per line in the cell), then
 * the row's cells as read under their original headers. Every cell is neutralised and quoted;
 * lines end with CRLF. Without the BOM (see `rejectedRowsCsvBlob`).
 */
export function rejectedRowsCsv(rows: readonly ImportRejectedRow[], labels: { row: string; reasons: string }): string {
  const columns = rejectedColumns(rows);
  const line = (cells: readonly string[]) => cells.map((cell) => quoteCsvCell(neutraliseFormula(cell))).join(',');
  const lines = [line([labels.row, labels.reasons, ...columns])];
  for (const row of rows) {
    lines.push(line([String(row.row), row.reasons.join('\n'), ...columns.map((column) => row.values[column] ?? '')]));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The CSV as a file Excel opens as UTF-8 (the byte order mark first). */
export const rejectedRowsCsvBlob = (rows: readonly ImportRejectedRow[], labels: { row: string; reasons: string }): Blob =>
  new Blob(['\uFEFF', rejectedRowsCsv(rows, labels)], { type: 'text/csv;charset=utf-8' });
