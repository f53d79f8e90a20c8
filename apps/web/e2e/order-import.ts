// The order screen's batch import as the journeys use it (orders-io.e2e.ts, first-hour.e2e.ts):
// download the template through the dialog, fill it the way a person fills a spreadsheet (under
// the template's own headers, in the column order it gives), send it back and read the report.
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Locator, Page } from '@playwright/test';
import { ORDER_SHEET_COLUMNS, type OrderSheetColumn } from '@clearplay/contract';
import { expect } from './harness.ts';

/** One row of the sheet, by column; a missing install time is yesterday. */
export type SheetRow = Partial<Record<OrderSheetColumn, string>>;

/** Clicks `trigger` and saves the file the browser downloads into `dir`; resolves to its path and name. */
export async function downloadOf(page: Page, trigger: Locator, dir: string): Promise<{ path: string; name: string }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), trigger.click()]);
  const name = download.suggestedFilename();
  const path = join(dir, `${Date.now()}-${name}`);
  await download.saveAs(path);
  return { path, name };
}

/** Yesterday as Beijing wall-clock text, `YYYY-MM-DD HH:mm` (an install time must not be in the future). */
export function yesterdayText(): string {
  const d = new Date(Date.now() - 24 * 60 * 60 * 1000 + 8 * 60 * 60 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/**
 * Writes `rows` under the headers of the downloaded template into a new xlsx in `dir`. The
 * template gives one header per column of the sheet, in the contract's column order; a
 * template with other columns fails here, naming them.
 */
export async function fillTemplate(
  templatePath: string,
  rows: readonly SheetRow[],
  dir: string,
): Promise<{ path: string; headers: string[] }> {
  const template = new ExcelJS.Workbook();
  await template.xlsx.readFile(templatePath);
  const sheet = template.worksheets[0]!;
  const headers: string[] = [];
  sheet.getRow(1).eachCell({ includeEmpty: false }, (cell, col) => (headers[col - 1] = String(cell.text)));
  expect(headers, 'the template has one header per column of the sheet').toHaveLength(ORDER_SHEET_COLUMNS.length);
  const installed = yesterdayText();
  const book = new ExcelJS.Workbook();
  const out = book.addWorksheet('orders');
  out.addRow(headers);
  for (const row of rows) {
    out.addRow(ORDER_SHEET_COLUMNS.map((column) => row[column] ?? (column === 'installationTime' ? installed : '')));
  }
  const path = join(dir, `filled-${Date.now()}.xlsx`);
  await book.xlsx.writeFile(path);
  return { path, headers };
}

/** The import dialog (open). */
export const importDialog = (page: Page): Locator => page.getByTestId('order-import-modal');

/** Sends `file` through the open import dialog (keeping the valid rows or not) and waits for its report. */
export async function importThroughDialog(page: Page, file: string, keepValid: boolean): Promise<Locator> {
  const dialog = importDialog(page);
  await dialog.locator('input[type=file]').setInputFiles(file);
  await expect(dialog.getByTestId('order-import-file-name')).toContainText('.xlsx');
  await dialog.getByRole('checkbox').setChecked(keepValid);
  await dialog.getByTestId('order-import-submit').click();
  const report = dialog.getByTestId('order-import-result');
  await expect(report).toBeVisible({ timeout: 30_000 });
  return report;
}

/** A statistic of the import's report as a number. */
export const statValue = async (scope: Locator, testId: string): Promise<number> =>
  Number((await scope.getByTestId(testId).locator('.ant-statistic-content-value').textContent())?.replace(/\D/g, ''));
