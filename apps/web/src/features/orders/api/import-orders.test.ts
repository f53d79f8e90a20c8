import { describe, expect, it } from 'vitest';
import type { ImportRejectedRow } from '@clearplay/contract';
import { exportParams } from './export-orders.ts';
import { neutraliseFormula } from '@clearplay/contract/constants';
import { isImportFile, quoteCsvCell, rejectedColumns, rejectedRowsCsv, rejectedRowsCsvBlob } from './import-orders.ts';

const rows: ImportRejectedRow[] = [
  { row: 3, reasons: ['MAC 地址格式不正确'], values: { 微信号: 'wx_a', MAC: 'zz-zz', 备注: '=HYPERLINK("http://x")' } },
  { row: 5, reasons: ['店铺不存在', '金额与价格不符'], values: { 微信号: '+86 138', 店铺: 'no,shop', MAC: '@x' } },
];

describe('the rejected-rows report', () => {
  it('neutralises cells a spreadsheet would run as a formula', () => {
    expect(neutraliseFormula('=1+1')).toBe("'=1+1");
    expect(neutraliseFormula('+86')).toBe("'+86");
    expect(neutraliseFormula('-5')).toBe("'-5");
    expect(neutraliseFormula('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutraliseFormula('\tx')).toBe("'\tx");
    expect(neutraliseFormula('a=b')).toBe('a=b');
    expect(neutraliseFormula('')).toBe('');
  });

  it('quotes cells with commas, quotes and line breaks', () => {
    expect(quoteCsvCell('plain')).toBe('plain');
    expect(quoteCsvCell('a,b')).toBe('"a,b"');
    expect(quoteCsvCell('say "hi"')).toBe('"say ""hi"""');
    expect(quoteCsvCell('two\nlines')).toBe('"two\nlines"');
  });

  it('has the row number, the reasons and every header seen, in first-seen order', () => {
    expect(rejectedColumns(rows)).toEqual(['微信号', 'MAC', '备注', '店铺']);
    const csv = rejectedRowsCsv(rows, { row: '行号', reasons: '原因' });
    expect(csv.split('\r\n')).toEqual([
      '行号,原因,微信号,MAC,备注,店铺',
      `3,MAC 地址格式不正确,wx_a,zz-zz,"'=HYPERLINK(""http://x"")",`,
      `5,"店铺不存在\n金额与价格不符",'+86 138,'@x,,"no,shop"`,
      '',
    ]);
  });

  it('starts the file with a UTF-8 byte order mark', async () => {
    const bytes = new Uint8Array(await rejectedRowsCsvBlob(rows, { row: 'Row', reasons: 'Reasons' }).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3)).startsWith('Row,Reasons,')).toBe(true);
  });

  it('takes xlsx and csv files only', () => {
    expect(isImportFile('orders.xlsx')).toBe(true);
    expect(isImportFile('ORDERS.CSV')).toBe(true);
    expect(isImportFile('orders.xls')).toBe(false);
    expect(isImportFile('orders.xlsx.exe')).toBe(false);
  });
});

describe('the export params', () => {
  it('keeps the filters, drops paging and empty values, sends dates as instants', () => {
    expect(
      exportParams({
        page: 2,
        pageSize: 20,
        current: 2,
        result: 1,
        objWechat: '  wx_ ',
        gameName: '',
        userId: undefined,
        ifPublic: null,
        orderStartTime: new Date('2026-01-01T00:00:00.000Z'),
        sortField: 'createdTime',
        extra: { nested: true },
      }),
    ).toEqual({ result: 1, objWechat: 'wx_', orderStartTime: '2026-01-01T00:00:00.000Z', sortField: 'createdTime' });
  });
});
