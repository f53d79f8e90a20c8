import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { XlsxStreamWriter } from '../../../lib/xlsx-stream.ts';
import { readSheet, type Cell } from './read.ts';

/**
 * The xlsx reader's text, character for character. exceljs's streaming reader decodes each chunk
 * of a part on its own, so a character whose UTF-8 bytes fall across two chunks came out as
 * U+FFFD ("玩家502" read as "玩���502"; exceljs issues 2063 and 2084, decision 0116). Thousands of
 * distinct Chinese texts make a part of many chunks, with boundaries inside characters.
 */
const ROWS = 3000;
const name = (i: number) => `玩家名称测试${i}号店铺描述复检`;
const shop = (i: number) => `店铺${i}：设备与上次检测一致`;

async function readAll(file: Buffer): Promise<{ headers: string[]; rows: Cell[][] }> {
  const sheet = await readSheet(file);
  const rows: Cell[][] = [];
  for await (const row of sheet.rows) rows.push(row.cells);
  return { headers: sheet.headers, rows };
}

function expectWhole({ headers, rows }: { headers: string[]; rows: Cell[][] }) {
  expect(headers).toEqual(['目标微信号', '目标名称', '客户店铺']);
  expect(rows).toHaveLength(ROWS);
  const broken = rows.flat().filter((cell) => typeof cell === 'string' && cell.includes('\uFFFD'));
  expect(broken).toEqual([]);
  rows.forEach((cells, i) => expect(cells).toEqual([`wxid_${i}`, name(i), shop(i)]));
}

describe('reading an xlsx', () => {
  it('keeps every character of shared strings (as Excel and exceljs store text)', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('订单');
    sheet.addRow(['目标微信号', '目标名称', '客户店铺']);
    for (let i = 0; i < ROWS; i++) sheet.addRow([`wxid_${i}`, name(i), shop(i)]);
    expectWhole(await readAll(Buffer.from(await book.xlsx.writeBuffer())));
  });

  it('keeps every character of inline strings (as the order export writes text)', async () => {
    const writer = new XlsxStreamWriter('订单', [{ width: 10 }, { width: 10 }, { width: 10 }]);
    const bytes = buffer(writer.stream);
    writer.writeRow(['目标微信号', '目标名称', '客户店铺'], true);
    for (let i = 0; i < ROWS; i++) writer.writeRow([`wxid_${i}`, name(i), shop(i)]);
    writer.end();
    expectWhole(await readAll(await bytes));
  });
});
