/**
 * Step 4 of an order import, reporting: each rejected row with its sheet row number, its
 * cells, and every reason prefixed by its column's header as the sheet wrote it, in the
 * sheet's column order.
 */
import { ORDER_SHEET_COLUMNS, type ImportRejectedRow, type OrderSheetColumn } from '@clearplay/contract';
import { t, type Locale, type MessageKey, type MessageParams } from '../../../lib/messages.ts';
import { headerOf, type SheetColumn } from '../files/orders.sheet.ts';

/** One reason a row is rejected: the column it is about and the message. */
export interface Problem {
  column: SheetColumn;
  key: MessageKey;
  params?: MessageParams;
}

const COLUMN_ORDER: readonly string[] = ORDER_SHEET_COLUMNS;

/** A column's place in the sheet's order; columns the sheet does not know come last. */
const columnRank = (column: string) => (COLUMN_ORDER.includes(column) ? COLUMN_ORDER.indexOf(column) : COLUMN_ORDER.length);

export interface ImportReport {
  readonly rejected: ImportRejectedRow[];
  reject(row: number, problems: Problem[], values: Record<string, string>): void;
}

/** The report of one import: `at` is where each known column sits among the sheet's headers. */
export function importReport(headers: readonly string[], at: ReadonlyMap<OrderSheetColumn, number>, locale: Locale): ImportReport {
  const headerText = (column: SheetColumn): string => {
    const index = (COLUMN_ORDER.includes(column) ? at.get(column as OrderSheetColumn) : undefined) ?? -1;
    const text = headers[index]?.trim();
    return text === undefined || text === '' ? headerOf(locale, column) : text;
  };
  const colon = locale === 'zh-CN' ? '：' : ': ';
  const rejected: ImportRejectedRow[] = [];
  return {
    rejected,
    reject(row, problems, values) {
      problems.sort((a, b) => columnRank(a.column) - columnRank(b.column));
      rejected.push({ row, reasons: problems.map((p) => `${headerText(p.column)}${colon}${t(locale, p.key, p.params)}`), values });
    },
  };
}
