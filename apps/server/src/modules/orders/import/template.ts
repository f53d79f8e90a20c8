/** The order import's template: the headers in the caller's language, and a sheet that explains each column. */
import { ORDER_SHEET_COLUMNS, type OrderSheetColumn } from '@clearplay/contract';
import type { Db } from '../../../db/index.ts';
import { t, type Locale } from '../../../lib/messages.ts';
import { REQUIRED_COLUMNS, headerOf, loadImportVocabulary } from '../files/orders.sheet.ts';
import { loadExcel } from './read.ts';

const TEXT_COLUMNS: ReadonlySet<OrderSheetColumn> = new Set([
  'objWechat',
  'objWechatName',
  'gameName',
  'mac',
  'result',
  'userName',
  'objClientName',
  'inspectorName',
  'ifPublic',
  'ifChangedMac',
  'description',
]);
const COLUMN_WIDTH: Partial<Record<OrderSheetColumn, number>> = { installationTime: 20, mac: 20, description: 40, objClientName: 18 };

/** The import template: the headers in the caller's language, and a sheet that explains each column. */
export async function importTemplate(db: Db, locale: Locale): Promise<Buffer> {
  const vocabulary = await loadImportVocabulary(db);
  const workbook = new (await loadExcel()).Workbook();
  workbook.creator = 'ClearPlay';
  const sheet = workbook.addWorksheet(t(locale, 'orderSheet.sheet.orders'), { views: [{ state: 'frozen', ySplit: 1 }] });
  ORDER_SHEET_COLUMNS.forEach((column, i) => {
    const col = sheet.getColumn(i + 1);
    col.width = COLUMN_WIDTH[column] ?? 14;
    if (TEXT_COLUMNS.has(column)) col.numFmt = '@';
    if (column === 'installationTime') col.numFmt = 'yyyy-mm-dd hh:mm';
    if (column === 'amount') col.numFmt = '0.00';
  });
  const header = sheet.getRow(1);
  ORDER_SHEET_COLUMNS.forEach((column, i) => {
    const cell = header.getCell(i + 1);
    cell.value = headerOf(locale, column);
    cell.font = { bold: true, color: REQUIRED_COLUMNS.includes(column) ? { argb: 'FFC00000' } : undefined };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF2F2F2' } };
  });
  header.commit();

  const help = workbook.addWorksheet(t(locale, 'orderSheet.sheet.help'));
  help.getColumn(1).width = 18;
  help.getColumn(2).width = 10;
  help.getColumn(3).width = 90;
  help.addRow([t(locale, 'orderSheet.help.intro')]);
  help.mergeCells('A1:C1');
  help.getRow(1).getCell(1).alignment = { wrapText: true, vertical: 'top' };
  help.getRow(1).height = 36;
  const helpHeader = help.addRow([
    t(locale, 'orderSheet.help.column'),
    t(locale, 'orderSheet.help.required'),
    t(locale, 'orderSheet.help.format'),
  ]);
  helpHeader.font = { bold: true };
  const explain: Record<OrderSheetColumn, string> = {
    objWechat: t(locale, 'orderSheet.help.objWechat'),
    objWechatName: t(locale, 'orderSheet.help.objWechatName'),
    gameName: t(locale, 'orderSheet.help.gameName', { values: vocabulary.gameLabels.join(', ') }),
    mac: t(locale, 'orderSheet.help.mac'),
    installationTime: t(locale, 'orderSheet.help.installationTime'),
    result: t(locale, 'orderSheet.help.result', { values: vocabulary.allowed.result.replace(/, 0–3$/, '') }),
    userName: t(locale, 'orderSheet.help.userName'),
    objClientName: t(locale, 'orderSheet.help.objClientName'),
    inspectorName: t(locale, 'orderSheet.help.inspectorName'),
    amount: t(locale, 'orderSheet.help.amount'),
    ifPublic: t(locale, 'orderSheet.help.ifPublic', { values: vocabulary.allowed.ifPublic }),
    ifChangedMac: t(locale, 'orderSheet.help.ifChangedMac', { values: vocabulary.allowed.ifChangedMac }),
    description: t(locale, 'orderSheet.help.description'),
  };
  for (const column of ORDER_SHEET_COLUMNS) {
    const required = REQUIRED_COLUMNS.includes(column);
    help
      .addRow([headerOf(locale, column), t(locale, required ? 'orderSheet.help.yes' : 'orderSheet.help.no'), explain[column]])
      .getCell(3).alignment = { wrapText: true };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
