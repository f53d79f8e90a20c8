import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnName, xmlText, XlsxStreamWriter } from './xlsx-stream.ts';

describe('the streaming xlsx writer', () => {
  it('names columns as spreadsheets do', () => {
    expect([1, 2, 26, 27, 52, 53, 702, 703].map(columnName)).toEqual(['A', 'B', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it('escapes markup and drops characters XML cannot carry', () => {
    expect(xmlText('a<b>&"c"')).toBe('a&lt;b&gt;&amp;&quot;c&quot;');
    expect(xmlText('x\u0000y\u0008z\u001f\tok\n')).toBe('xyz\tok\n');
    expect(xmlText('表情 😀')).toBe('表情 😀');
    // A reader normalises a bare CR LF to LF; the reference keeps the CR (decision 0115).
    expect(xmlText('line\r\nnext\r')).toBe('line&#13;\nnext&#13;');
  });

  it('writes a workbook that a spreadsheet reader opens: header, text, money, dates, empty cells', async () => {
    const xlsx = new XlsxStreamWriter('订单 <export>', [
      { width: 10 },
      { width: 12, format: 'cny' },
      { width: 20, format: 'datetime' },
      { width: 8 },
    ]);
    const bytes = buffer(xlsx.stream);
    xlsx.writeRow(['名称', 'Amount', 'Time', 'Note'], true);
    xlsx.writeRow(['A&B <c> "d" 😀', 12.5, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), null]);
    xlsx.writeRow(["'=1+1", 0, null, 'x\u0001y']);
    xlsx.writeRow(['  two spaces before', null, null, 'two\nlines ']);
    await xlsx.drained();
    xlsx.end();

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await bytes) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe('订单 <export>');
    expect(sheet?.getRow(1).values).toEqual([undefined, '名称', 'Amount', 'Time', 'Note']);
    expect(sheet?.getRow(1).getCell(1).font?.bold).toBe(true);
    const row2 = sheet?.getRow(2);
    expect(row2?.getCell(1).value).toBe('A&B <c> "d" 😀');
    expect(row2?.getCell(2).value).toBe(12.5);
    expect(row2?.getCell(2).numFmt).toBe('"¥"#,##0.00');
    expect((row2?.getCell(3).value as Date).toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(row2?.getCell(3).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(row2?.getCell(4).value).toBeNull();
    expect(sheet?.getRow(3).getCell(1).value).toBe("'=1+1");
    expect(sheet?.getRow(3).getCell(2).value).toBe(0);
    expect(sheet?.getRow(3).getCell(4).value).toBe('xy');
    // spaces at either end and line breaks are kept (xml:space="preserve" where they occur)
    expect(sheet?.getRow(4).getCell(1).value).toBe('  two spaces before');
    expect(sheet?.getRow(4).getCell(4).value).toBe('two\nlines ');
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });
});
