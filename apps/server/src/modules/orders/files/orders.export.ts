/**
 * Order export (docs/product.md "Orders"): the list's filters, streamed as an xlsx. Rows are read
 * in pages of the list's own order (keyset pagination on the sort key and id), each page
 * written before the next is read, so memory stays flat on a million orders and the
 * database connection is never held for the whole download. A shop exports what the list
 * shows it: its own orders in full, other shops' public orders without amount and client.
 * Evidence columns hold absolute links (PUBLIC_URL, else the request's origin), signed for
 * EVIDENCE_URL_EXPORT_HOURS; the header row says until when and where to sign in after that
 * (decision 0082).
 */
import type { Readable } from 'node:stream';
import { fenToYuan, neutraliseFormula, type OrderExportQuery } from '@clearplay/contract';
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { Database } from '../../../db/schema.ts';
import { t, type Locale } from '../../../lib/messages.ts';
import { nowMs } from '../../../lib/time.ts';
import type { Operator } from '../../../http/route-context.ts';
import * as repo from '../orders.repository.ts';
import { displayName, seesAll } from '../orders.rules.ts';
import { toOrderFilter, toSort } from '../orders.service.ts';
import {
  EXPORT_COLUMNS,
  beijingCellDate,
  fileStamp,
  formatBeijing,
  headerOf,
  labelOf,
  loadDictLabels,
  type DictLabels,
  type SheetColumn,
} from './orders.sheet.ts';
import { signImageList, type EvidenceUrls } from '../../uploads/uploads.service.ts';
import { XlsxStreamWriter, type XlsxCell, type XlsxFormat } from '../../../lib/xlsx-stream.ts';

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

const text = (value: string | null): string | null => (value === null || value === '' ? null : neutraliseFormula(value));

/**
 * An export row as the driver returns it: the columns of `orders.repository filtered`,
 * snake_case, because the export reads its pages without the camel-case mapping (on 100,000
 * rows that mapping alone cost about a tenth of the export; see docs/decisions/0024).
 */
export interface ExportRow {
  id: number;
  code: string;
  obj_wechat: string;
  obj_wechat_name: string;
  game_name: string;
  mac: string;
  installation_at: number;
  result: number;
  user_id: number;
  obj_client_name: string;
  amount: number;
  if_public: number;
  if_changed_mac: number;
  description: string;
  cert_images: string;
  proof_images: string;
  person_cert_images: string;
  created_at: number;
  updated_at: number;
  client_username: string | null;
  client_nickname: string | null;
  inspector_username: string | null;
  inspector_nickname: string | null;
}

/** Who reads the export: every order in full, or a shop (id) seeing its own in full. */
export interface Viewer {
  seesAll: boolean;
  id: number;
}

/**
 * One order as the export's cells, in EXPORT_COLUMNS order, with what `toOrderItem` shows the
 * operator: a shop sees amount and client of its own orders only (the export test checks the
 * two agree).
 */
export function exportCells(
  row: ExportRow,
  viewer: Viewer,
  dict: DictLabels,
  images: (list: string) => string = (list) => list,
): XlsxCell[] {
  const full = viewer.seesAll || Number(row.user_id) === viewer.id;
  const byColumn: Record<SheetColumn, XlsxCell> = {
    code: text(row.code),
    objWechat: text(row.obj_wechat),
    objWechatName: text(row.obj_wechat_name),
    gameName: text(row.game_name),
    mac: text(row.mac),
    installationTime: beijingCellDate(Number(row.installation_at)),
    result: text(labelOf(dict, 'result', row.result)),
    userName: full ? text(displayName(row.client_nickname, row.client_username)) : null,
    objClientName: text(row.obj_client_name),
    inspectorName: full ? text(displayName(row.inspector_nickname, row.inspector_username)) : null,
    // A number cell (it sums and sorts in the sheet) whose format `"¥"#,##0.00` shows it as formatMoney does.
    amount: full ? fenToYuan(Number(row.amount)) : null,
    ifPublic: text(labelOf(dict, 'ifPublic', row.if_public === 1 ? 1 : 0)),
    ifChangedMac: text(labelOf(dict, 'ifChangedMac', row.if_changed_mac === 1 ? 1 : 0)),
    description: text(row.description),
    certImages: text(images(row.cert_images)),
    proofImages: text(images(row.proof_images)),
    personCertImages: text(images(row.person_cert_images)),
    createdTime: beijingCellDate(Number(row.created_at)),
    updatedTime: beijingCellDate(Number(row.updated_at)),
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

/** How the export writes evidence links: signed by `urls`, absolute under `base` (no trailing slash). */
export interface ExportLinks {
  urls: EvidenceUrls;
  base: string;
  ownHost?: string;
}

/** A stored image list as the export's absolute links, signed until `deadline`. */
export function exportImageList(links: ExportLinks, list: string, deadline: number): string {
  if (list === '') return list;
  return signImageList(links.urls, list, deadline, links.ownHost)
    .split(',')
    .map((url) => (url.startsWith('/') && !url.startsWith('//') ? `${links.base}${url}` : url))
    .join(',');
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
export async function exportOrders(
  db: Db,
  query: OrderExportQuery,
  op: Operator,
  locale: Locale,
  onError: (error: unknown) => void,
  links?: ExportLinks,
): Promise<OrderExport> {
  const filter = toOrderFilter(query, op);
  const sort = toSort(query);
  const dict = await loadDictLabels(db, locale);
  const viewer: Viewer = { seesAll: seesAll(op), id: op.id };
  // Compiled with the camel-case plugin (the filters name columns in camelCase), run without it.
  const raw = db.withoutPlugins();
  const page = async (f: repo.OrderFilter, cursor: Cursor | null) => {
    const q = repo.filtered(db, f, sort);
    const compiled = (cursor === null ? q : q.where((eb) => after(eb, sort, cursor))).limit(EXPORT_PAGE).compile();
    return (await raw.executeQuery<ExportRow>(compiled)).rows;
  };
  // The first page is read before the answer starts, so a failing database is still a JSON error.
  let rows = filter === null ? [] : await page(filter, null);

  const started = nowMs();
  const stamp = fileStamp(started);
  const deadline = links === undefined ? 0 : Math.floor(started / 1000) + links.urls.exportTtlSeconds;
  const images = links === undefined ? undefined : (list: string) => exportImageList(links, list, deadline);
  // After the last column: until when the links work, and where to look after that.
  const note =
    links === undefined
      ? []
      : [t(locale, 'orderSheet.header.imageLinks', { until: formatBeijing(deadline * 1000), base: `${links.base}/` })];
  const xlsx = new XlsxStreamWriter(
    t(locale, 'orderSheet.sheet.orders'),
    EXPORT_COLUMNS.map((column) => ({ width: WIDTH[column] ?? 14, format: FORMAT[column] })),
  );

  const write = async () => {
    xlsx.writeRow([...EXPORT_COLUMNS.map((column) => headerOf(locale, column)), ...note], true);
    for (;;) {
      for (const row of rows) xlsx.writeRow(exportCells(row, viewer, dict, images));
      const last = rows.at(-1);
      if (filter === null || last === undefined || rows.length < EXPORT_PAGE) break;
      await xlsx.drained();
      if (xlsx.closed) return;
      rows = await page(filter, { key: Number(sort.field === 'amount' ? last.amount : last.created_at), id: Number(last.id) });
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
