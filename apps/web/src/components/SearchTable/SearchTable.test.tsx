import { Button } from 'antd';
import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../../lib/api-client.ts';
import { serveApi, type ApiCall } from '../../test/fake-api.ts';
import { renderInApp } from '../../test/render.tsx';
import { SearchTable, type SearchTableColumn, type SearchTableProps, type TablePage } from './index.ts';

interface Member {
  id: number;
  username: string;
  nickname: string;
  phone: string;
  status: 0 | 1;
  createdAt: string;
}

const MEMBERS: Member[] = Array.from({ length: 45 }, (_, i) => ({
  id: i + 1,
  username: `member${String(i + 1).padStart(2, '0')}`,
  nickname: `会员${i + 1}`,
  phone: `1380000${String(i + 1).padStart(4, '0')}`,
  status: i % 3 === 0 ? 0 : 1,
  createdAt: new Date(Date.UTC(2026, 0, 1 + ((i * 7) % 45))).toISOString(),
}));

/** The server's list endpoint over MEMBERS: filters, sort, pages, like the API answers. */
function serveMembers(members: () => Member[] = () => MEMBERS) {
  return serveApi((call: ApiCall) => {
    if (call.path !== '/api/admin/members') return { status: 404, msg: 'not found', data: null };
    const q = call.query;
    let rows = members().filter(
      (m) =>
        (!q.get('username') || m.username.includes(q.get('username')!)) &&
        (!q.get('phone') || m.phone.includes(q.get('phone')!)) &&
        (!q.get('status') || String(m.status) === q.get('status')),
    );
    if (q.get('sortField') === 'createdAt') {
      rows = [...rows].sort((a, b) => a.createdAt.localeCompare(b.createdAt) * (q.get('sortOrder') === 'descend' ? -1 : 1));
    }
    const page = Number(q.get('page') ?? 1);
    const pageSize = Number(q.get('pageSize') ?? 20);
    const data: TablePage<Member> = { list: rows.slice((page - 1) * pageSize, page * pageSize), total: rows.length };
    return { status: 200, msg: 'ok', data };
  });
}

const columns: SearchTableColumn<Member>[] = [
  { key: 'username', title: '用户名', search: { type: 'input' } },
  { key: 'nickname', title: '昵称', search: { type: 'input' } },
  { key: 'phone', title: '手机号', search: { type: 'input' } },
  {
    key: 'status',
    title: '状态',
    search: {
      type: 'select',
      options: [
        { label: '正常', value: 1 },
        { label: '停用', value: 0 },
      ],
    },
    render: (status: Member['status']) => (status === 1 ? '正常' : '停用'),
  },
  { key: 'createdAt', title: '创建时间', sortParam: 'createdAt', render: (at: string) => at.slice(0, 10) },
  { key: 'remark', title: '备注', defaultHidden: true, render: () => '—' },
];

function MemberTable(props: Partial<SearchTableProps<Member>>) {
  return (
    <SearchTable<Member>
      tableId="members"
      title="会员列表"
      columns={columns}
      queryKey={['members']}
      fetcher={(params, signal) => api.get<TablePage<Member>>('/admin/members', { params, signal })}
      rowKey="id"
      {...props}
    />
  );
}

const listCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === '/api/admin/members').map((c) => Object.fromEntries(c.query));
const headers = () =>
  screen
    .getAllByRole('columnheader')
    .map((th) => th.textContent?.trim())
    .filter(Boolean);
const usernames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => (row as HTMLTableRowElement).cells[0]?.textContent);
/** What the rows look like: antd's sizes (medium, small, large = no size class) and the house's mini (small, tighter). */
const density = () => {
  const table = screen.getByRole('table').closest('.ant-table') as HTMLElement;
  const classes = table.className.split(' ');
  if (table.closest('.ant-table-wrapper')?.classList.contains('search-table-mini'))
    return classes.includes('ant-table-small') ? 'mini' : 'mini, not small';
  if (classes.includes('ant-table-small')) return 'small';
  if (classes.includes('ant-table-medium')) return 'medium';
  return 'large';
};

describe('SearchTable', () => {
  it('loads the first page, shows the total, and refresh asks the server again', async () => {
    let members = MEMBERS;
    const server = serveMembers(() => members);
    const { user } = renderInApp(<MemberTable />);

    expect(await screen.findByText('member01')).toBeTruthy();
    expect(screen.getByText('会员列表')).toBeTruthy();
    expect(screen.getByText('共 45 条')).toBeTruthy();
    expect(usernames()).toHaveLength(20);
    expect(headers()).toEqual(['用户名', '昵称', '手机号', '状态', '创建时间']);
    expect(listCalls(server.calls)).toEqual([{ page: '1', pageSize: '20' }]);

    members = [{ ...MEMBERS[0]!, username: 'renamed01' }, ...MEMBERS.slice(1)];
    await user.click(screen.getByRole('button', { name: '刷新' }));
    expect(await screen.findByText('renamed01')).toBeTruthy();
    expect(screen.queryByText('member01')).toBeNull();
    expect(listCalls(server.calls)).toEqual([
      { page: '1', pageSize: '20' },
      { page: '1', pageSize: '20' },
    ]);
  });

  it('changes density from the toolbar menu, and remembers it for the next visit', async () => {
    serveMembers();
    const { user, unmount } = renderInApp(<MemberTable />);
    await screen.findByText('member01');
    expect(density()).toBe('medium');

    await user.click(screen.getByRole('button', { name: '密度' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['迷你', '偏小', '中等', '偏大']);
    await user.click(within(menu).getByRole('menuitem', { name: '偏大' }));
    await waitFor(() => expect(density()).toBe('large'));

    await user.click(screen.getByRole('button', { name: '密度' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: '迷你' }));
    await waitFor(() => expect(density()).toBe('mini'));

    await user.click(screen.getByRole('button', { name: '密度' }));
    await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: '偏小' }));
    await waitFor(() => expect(density()).toBe('small'));

    unmount();
    renderInApp(<MemberTable />);
    await screen.findByText('member01');
    expect(density()).toBe('small');
  });

  it('column settings show, hide and reorder columns, remember them, and reset', async () => {
    serveMembers();
    const { user, unmount } = renderInApp(<MemberTable />);
    await screen.findByText('member01');

    await user.click(screen.getByRole('button', { name: '列设置' }));
    const settings = await screen.findByTestId('column-settings');
    const entries = () => within(settings).getAllByRole('listitem');
    expect(entries().map((li) => li.textContent)).toEqual(['用户名', '昵称', '手机号', '状态', '创建时间', '备注']);
    const box = (name: string) => within(settings).getByRole('checkbox', { name });
    expect((box('备注') as HTMLInputElement).checked).toBe(false); // hidden until asked for
    expect((box('用户名') as HTMLInputElement).checked).toBe(true);

    await user.click(box('手机号'));
    await waitFor(() => expect(headers()).toEqual(['用户名', '昵称', '状态', '创建时间']));
    await user.click(box('备注'));
    await waitFor(() => expect(headers()).toEqual(['用户名', '昵称', '状态', '创建时间', '备注']));

    const entry = (name: string) => entries().find((li) => li.textContent === name)!;
    await user.click(within(entry('用户名')).getByRole('button', { name: '下移' }));
    await waitFor(() => expect(headers()).toEqual(['昵称', '用户名', '状态', '创建时间', '备注']));
    expect(within(entry('昵称')).getByRole('button', { name: '上移' })).toHaveProperty('disabled', true);
    expect(within(entry('备注')).getByRole('button', { name: '下移' })).toHaveProperty('disabled', true);

    // "all columns": some hidden, so it shows them all; again, it hides all but the first (a table keeps one column)
    const all = () => within(settings).getByRole('checkbox', { name: '全部列' }) as HTMLInputElement;
    expect(all().checked).toBe(false);
    await user.click(all());
    await waitFor(() => expect(headers()).toEqual(['昵称', '用户名', '手机号', '状态', '创建时间', '备注']));
    expect(all().checked).toBe(true);
    await user.click(all());
    await waitFor(() => expect(headers()).toEqual(['昵称']));
    expect((box('昵称') as HTMLInputElement).disabled).toBe(true);
    await user.click(all());
    await waitFor(() => expect(headers()).toEqual(['昵称', '用户名', '手机号', '状态', '创建时间', '备注']));
    await user.click(box('状态'));
    await waitFor(() => expect(headers()).toEqual(['昵称', '用户名', '手机号', '创建时间', '备注']));

    // the next visit keeps them
    unmount();
    const again = renderInApp(<MemberTable />);
    await screen.findByText('member01');
    expect(headers()).toEqual(['昵称', '用户名', '手机号', '创建时间', '备注']);

    await again.user.click(screen.getByRole('button', { name: '列设置' }));
    const reopened = await screen.findByTestId('column-settings');
    await again.user.click(within(reopened).getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(headers()).toEqual(['用户名', '昵称', '手机号', '状态', '创建时间']));
  });

  it('the search form starts collapsed to its first row; expand shows every field, collapse hides them again', async () => {
    serveMembers();
    const { user } = renderInApp(<MemberTable />);
    await screen.findByText('member01');
    // 1024 px wide: three places a row, the buttons take the last one
    expect(screen.getByRole('textbox', { name: '用户名' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '昵称' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: '手机号' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: '状态' })).toBeNull();

    await user.click(screen.getByRole('button', { name: /展开/ }));
    expect(screen.getByRole('textbox', { name: '手机号' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: '状态' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /收起/ }));
    expect(screen.queryByRole('textbox', { name: '手机号' })).toBeNull();
    expect(screen.getByRole('button', { name: /展开/ })).toBeTruthy();
  });

  it('starts expanded when asked, and has no toggle when every field fits', async () => {
    serveMembers();
    const { unmount } = renderInApp(<MemberTable defaultExpanded />);
    await screen.findByText('member01');
    expect(screen.getByRole('textbox', { name: '手机号' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /收起/ })).toBeTruthy();
    unmount();

    renderInApp(<MemberTable columns={columns.map((c) => (c.key === 'username' ? c : { ...c, search: undefined }))} />);
    await screen.findByText('member01');
    expect(screen.getByRole('textbox', { name: '用户名' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /展开|收起/ })).toBeNull();
  });

  it('searches with the form’s values from page 1, keeps them while paging, and reset clears them', async () => {
    const server = serveMembers();
    const { user } = renderInApp(<MemberTable />);
    await screen.findByText('member01');

    await user.click(screen.getByRole('listitem', { name: '2' }));
    await screen.findByText('member21');

    await user.type(screen.getByRole('textbox', { name: '用户名' }), '  member1 ');
    await user.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls(server.calls).at(-1)).toEqual({ username: 'member1', page: '1', pageSize: '20' }));
    await waitFor(() =>
      expect(usernames()).toEqual([
        'member10',
        'member11',
        'member12',
        'member13',
        'member14',
        'member15',
        'member16',
        'member17',
        'member18',
        'member19',
      ]),
    );
    expect(listCalls(server.calls).at(-1)).toEqual({ username: 'member1', page: '1', pageSize: '20' });
    expect(screen.getByText('共 10 条')).toBeTruthy();

    // a select field too, and the pages keep the filters
    await user.clear(screen.getByRole('textbox', { name: '用户名' }));
    await user.type(screen.getByRole('textbox', { name: '用户名' }), 'member{Enter}');
    await user.click(screen.getByRole('button', { name: /展开/ }));
    await user.click(screen.getByRole('combobox', { name: '状态' }));
    await user.click(await screen.findByTitle('正常')); // the option in the open list
    await waitFor(() => expect(screen.getByRole('combobox', { name: '状态' }).closest('.ant-select')?.textContent).toContain('正常'));
    await user.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(listCalls(server.calls).at(-1)).toEqual({ username: 'member', status: '1', page: '1', pageSize: '20' }));
    await waitFor(() => expect(screen.getByText('共 30 条')).toBeTruthy());
    await user.click(screen.getByRole('listitem', { name: '2' }));
    await waitFor(() => expect(listCalls(server.calls).at(-1)).toEqual({ username: 'member', status: '1', page: '2', pageSize: '20' }));
    await waitFor(() => expect(usernames()).toHaveLength(10));

    await user.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(listCalls(server.calls).at(-1)).toEqual({ page: '1', pageSize: '20' }));
    expect((screen.getByRole('textbox', { name: '用户名' }) as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(screen.getByText('共 45 条')).toBeTruthy());
  });

  it('sorts by the server on a sortable header: ascending, descending, then the default order', async () => {
    const server = serveMembers();
    const { user } = renderInApp(<MemberTable />);
    await screen.findByText('member01');
    const header = () => screen.getByRole('columnheader', { name: /创建时间/ });

    await user.click(header());
    await waitFor(() =>
      expect(listCalls(server.calls).at(-1)).toEqual({ sortField: 'createdAt', sortOrder: 'ascend', page: '1', pageSize: '20' }),
    );
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('ascending'));
    const oldest = [...MEMBERS].sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0]!.username;
    await waitFor(() => expect(usernames()[0]).toBe(oldest));

    await user.click(header());
    await waitFor(() => expect(listCalls(server.calls).at(-1)).toMatchObject({ sortField: 'createdAt', sortOrder: 'descend' }));
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('descending'));

    await user.click(header());
    await waitFor(() => expect(listCalls(server.calls).at(-1)).toEqual({ page: '1', pageSize: '20' }));
  });

  it('selects rows for the toolbar’s batch actions and clears the selection', async () => {
    serveMembers();
    const { user } = renderInApp(
      <MemberTable
        selectable={{ disabled: (m) => m.status === 0 }}
        toolbar={({ selectedRows, clearSelection }) => (
          <Button disabled={selectedRows.length === 0} onClick={clearSelection}>
            {`批量停用 (${selectedRows.map((m) => m.username).join(',')})`}
          </Button>
        )}
      />,
    );
    await screen.findByText('member01');
    const rowOf = (username: string) => screen.getByText(username).closest('tr') as HTMLElement;
    expect((within(rowOf('member01')).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true); // status 0

    await user.click(within(rowOf('member02')).getByRole('checkbox'));
    await user.click(within(rowOf('member03')).getByRole('checkbox'));
    expect(screen.getByText('已选 2 项')).toBeTruthy();
    expect(screen.getByRole('button', { name: '批量停用 (member02,member03)' })).toHaveProperty('disabled', false);

    await user.click(screen.getByRole('button', { name: '取消选择' }));
    expect(screen.queryByText(/已选/)).toBeNull();
    expect(screen.getByRole('button', { name: '批量停用 ()' })).toHaveProperty('disabled', true);
    expect((within(rowOf('member02')).getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
  });

  it('is as wide as its shown columns need, so a column without a width is never squeezed to a sliver', async () => {
    serveMembers();
    const sized: SearchTableColumn<Member>[] = [
      { key: 'username', title: '用户名', width: 400 },
      { key: 'phone', title: '手机号', width: 400 },
      { key: 'remark', title: '备注', ellipsis: true, render: () => '很长的备注' },
      { key: 'actions', title: '操作', width: 300, fixed: 'right', render: () => '编辑' },
    ];
    const { user } = renderInApp(<MemberTable columns={sized} selectable scrollX={1000} />);
    await screen.findByText('member01');
    // 400 + 400 + 300, the remark's least 200 and the checkbox column's 48: more than the 1000 asked for.
    expect(screen.getByRole('table').style.width).toBe('1348px');

    await user.click(screen.getByTestId('table-columns'));
    await user.click(screen.getByTestId('column-toggle-phone'));
    await waitFor(() => expect(screen.getByRole('table').style.width).toBe('1000px'));
  });

  it('measures its columns again when the columns, the rows or a cell’s content change, not on every render', async () => {
    serveMembers();
    // Counts the fitting's passes: each reads every header and body cell of the table.
    const querySelectorAll = vi.spyOn(Element.prototype, 'querySelectorAll');
    const measured = () => querySelectorAll.mock.calls.filter(([selector]) => selector === 'th[data-column], td[data-column]').length;
    /** A page that re-renders for reasons of its own, handing the table new (equal) column objects each time, as pages do. */
    /** A cell whose content changes on its own, with neither the rows nor the columns changing. */
    function More() {
      const [open, setOpen] = useState(false);
      return <Button onClick={() => setOpen(true)}>{open ? '更多：很长的一段说明文字' : '看更多'}</Button>;
    }
    function Page() {
      const [clicks, setClicks] = useState(0);
      return (
        <MemberTable
          columns={[...columns.map((c) => ({ ...c })), { key: 'more', title: '更多', width: 80, render: () => <More /> }]}
          selectable
          toolbar={() => <Button onClick={() => setClicks(clicks + 1)}>{`点击 ${clicks}`}</Button>}
        />
      );
    }
    try {
      const { user } = renderInApp(<Page />);
      await screen.findByText('member01');
      await waitFor(() => expect(measured()).toBeGreaterThan(0));
      const settled = measured();

      await user.click(screen.getByRole('button', { name: '点击 0' }));
      await screen.findByRole('button', { name: '点击 1' });
      await user.click(within(screen.getByText('member02').closest('tr') as HTMLElement).getByRole('checkbox'));
      expect(screen.getByText('已选 1 项')).toBeTruthy();
      expect(measured()).toBe(settled);
      await user.click(screen.getAllByRole('button', { name: '看更多' })[0]!);
      await screen.findByText('更多：很长的一段说明文字');
      await waitFor(() => expect(measured()).toBe(settled + 1));

      // Another page of rows, and another set of columns, are measured.
      await user.click(screen.getByTitle('2'));
      expect(await screen.findByText('member21')).toBeTruthy();
      await waitFor(() => expect(measured()).toBeGreaterThan(settled + 1));
      const paged = measured();
      await user.click(screen.getByTestId('table-columns'));
      await user.click(screen.getByTestId('column-toggle-phone'));
      await waitFor(() => expect(headers()).not.toContain('手机号'));
      expect(measured()).toBeGreaterThan(paged);
    } finally {
      querySelectorAll.mockRestore();
    }
  });

  it('tells the user when the list cannot be loaded', async () => {
    serveApi(() => ({ status: 500, msg: '服务器开小差了', data: null }));
    renderInApp(<MemberTable loadErrorMessage="会员查询失败" />);
    expect(await screen.findByText('会员查询失败')).toBeTruthy();
    expect(await screen.findByText('服务器开小差了')).toBeTruthy(); // the API client's own toast
    expect(screen.getByRole('table').textContent).toContain('暂无数据');
    expect(screen.queryByText('member01')).toBeNull();
  });
});
