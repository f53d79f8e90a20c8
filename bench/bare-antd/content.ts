// The page after the bare sign-in: a layout, four statistic cards and a table of ten rows, the
// antd components the workplace's first screen is made of.
import { Card, Col, Layout, Row, Statistic, Table } from 'antd';
import { createElement as h } from 'react';

const rows = Array.from({ length: 10 }, (_, i) => ({
  key: i,
  code: `C${1000 + i}`,
  target: `目标 ${i}`,
  game: 'CS2',
  amount: (i + 1) * 500,
}));

export default function Content() {
  return h(
    Layout,
    { style: { minHeight: '100vh' } },
    h(Layout.Header, { style: { color: '#fff' } }, 'ClearPlay'),
    h(
      Layout.Content,
      { style: { padding: 24 } },
      h(
        'div',
        { 'data-testid': 'bare-content' },
        h(
          Row,
          { gutter: 16 },
          ...['余额', '待复检', '待续费', '本月订单'].map((title, i) =>
            h(Col, { key: title, span: 6 }, h(Card, null, h(Statistic, { title, value: (i + 1) * 1234 }))),
          ),
        ),
      ),
      h(Table, {
        style: { marginTop: 16 },
        dataSource: rows,
        pagination: false,
        columns: [
          { title: '编号', dataIndex: 'code' },
          { title: '目标', dataIndex: 'target' },
          { title: '游戏', dataIndex: 'game' },
          { title: '金额', dataIndex: 'amount' },
        ],
      }),
    ),
  );
}
