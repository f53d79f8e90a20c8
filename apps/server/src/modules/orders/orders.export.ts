/**
 * Order export (PRODUCT.md "Orders"): the list's filters, streamed as an xlsx. Rows are read
 * in pages of the list's own order (keyset pagination on the sort key and id), each page
 * written before the next is read, so memory stays flat on a million orders and the
 * database connection is never held for the whole download. A shop exports what the list
 * shows it: its own orders in full, other shops' public orders without amount and client.
 */
import type { Readable } from 'node:stream';
import { neutraliseFormula, type OrderExportQuery, type OrderItem } from '@clearplay/contract';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { t, type Locale } from '../../lib/messages.ts';
import { nowMs } from '../../lib/time.ts';
import type { Operator } from '../../plugins/auth.ts';
import * as repo from './orders.repository.ts';
import { toOrderFilter, toOrderItem, toSort } from './orders.service.ts';
import { EXPORT_COLUMNS, beijingCellDate, fileStamp, headerOf, labelOf, loadDictLabels, type DictLabels, type SheetColumn } from './orders.sheet.ts';
import { XlsxStreamWriter, type XlsxCell, type XlsxFormat } from '../../lib/xlsx-stream.ts';

/** Rows per database read. */
export const EXPORT_PAGE = 500;

const WIDTH: Partial<Record<SheetColumn, number>> = {
  code: 12,
  objWechat: 18,
  objWechatName: 16,
  mac: 20,
  installationTime: 20,
  objClientName: 18,
  description: 40,
  certImages: 40,
  proofImages: 40,
  personCertImages: 40,
  createdTime: 20,
  updatedTime: 20,
};
const FORMAT: Partial<Record<SheetColumn, XlsxFormat>> = {
  amount: 'cny',
  installationTime: 'datetime',
  createdTime: 'datetime',
  updatedTime: 'datetime',
};

type CellValue = XlsxCell;

const text = (value: string | null): string | null => (value === null || value === '' ? null : neutraliseFormula(value));

/** One order as the export's cells, in EXPORT_COLUMNS order. */
export function exportCells(item: OrderItem, dict: DictLabels): CellValue[] {
  const byColumn: Record<SheetColumn, CellValue> = {
    code: text(item.code),
    objWechat: text(item.objWechat),
    objWechatName: text(item.objWechatName),
    gameName: text(item.gameName),
    mac: text(item.mac),
    installationTime: beijingCellDate(Date.parse(item.installationTime)),
    result: text(labelOf(dict, 'result', item.result)),
    userName: text(item.userName),
    objClientName: text(item.objClientName),
    inspectorName: text(item.inspectorName),
    amount: item.amount === null ? null : item.amount / 100,
    ifPublic: text(labelOf(dict, 'ifPublic', item.ifPublic)),
    ifChangedMac: text(labelOf(dict, 'ifChangedMac', item.ifChangedMac)),
    description: text(item.description),
    certImages: text(item.certImages),
    proofImages: text(item.proofImages),
    personCertImages: text(item.personCertImages),
    createdTime: beijingCellDate(Date.parse(item.createdTime)),
    updatedTime: beijingCellDate(Date.parse(item.updatedTime)),
  };
  return EXPORT_COLUMNS.map((column) => byColumn[column]);
}

type Cursor = { key: number; id: number };
type ListEb = ExpressionBuilder<Database & { client: Database['users']; inspector: Database['users'] }, 'orders' | 'client' | 'inspector'>;

/**
 * The rows after the cursor in the sort's direction: (key, id) beyond (cursor.key, cursor.id),
 * written as `key <= k AND (key < k OR id < i)` (mirrored for ascending) so the sort key's
 * index gets a range bound: each page starts where the last one ended instead of walking
 * the index from the top again.
 */
function after(eb: ListEb, sort: repo.OrderSort, cursor: Cursor) {
  const column = sort.field === 'amount' ? 'orders.amount' : 'orders.createdAt';
  const beyond = sort.dir === 'asc' ? '>' : '<';
  const orEqual = sort.dir === 'asc' ? '>=' : '<=';
  return eb.and([eb(column, orEqual, cursor.key), eb.or([eb(column, beyond, cursor.key), eb('orders.id', beyond, cursor.id)])]);
}


export interface OrderExport {
  fileName: string;
  asciiName: string;
  stream: Readable;
}

/**
 * Checks the filters and reads the dictionary (errors here are ordinary JSON answers), then
 * returns the xlsx stream; the rows are written into it as it is read. `onError` hears a
 * failure after the first byte (the download then ends short, as the client will see).
 */
export async function exportOrders(db: Db, query: OrderExportQuery, op: Operator, locale: Locale, onError: (error: unknown) => void): Promise<OrderExport> {
  const filter = toOrderFilter(query, op);
  const sort = toSort(query);
  const dict = await loadDictLabels(db);
  const page = (f: repo.OrderFilter, cursor: Cursor | null) => {
    const q = repo.filtered(db, f, sort);
    return (cursor === null ? q : q.where((eb) => after(eb, sort, cursor))).limit(EXPORT_PAGE).execute();
  };
  // The first page is read before the answer starts, so a failing database is still a JSON error.
  let rows = filter === null ? [] : await page(filter, null);

  const stamp = fileStamp(nowMs());
  const xlsx = new XlsxStreamWriter(
    t(locale, 'orderSheet.sheet.orders'),
    EXPORT_COLUMNS.map((column) => ({ width: WIDTH[column] ?? 14, format: FORMAT[column] })),
  );

  const write = async () => {
    xlsx.writeRow(
      EXPORT_COLUMNS.map((column) => headerOf(locale, column)),
      true,
    );
    for (;;) {
      for (const row of rows) xlsx.writeRow(exportCells(toOrderItem(row, op), dict));
      const last = rows.at(-1);
      if (filter === null || last === undefined || rows.length < EXPORT_PAGE) break;
      await xlsx.drained();
      if (xlsx.closed) return;
      rows = await page(filter, { key: Number(sort.field === 'amount' ? last.amount : last.createdAt), id: Number(last.id) });
    }
    xlsx.end();
  };
  write().catch((error: unknown) => {
    onError(error);
    xlsx.destroy(error instanceof Error ? error : new Error(String(error)));
  });

  const base = t(locale, 'orderSheet.file.export');
  return { fileName: `${base}-${stamp}.xlsx`, asciiName: `orders-${stamp}.xlsx`, stream: xlsx.stream };
}
