import { screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { AnnouncementItem, MessageItem, UnreadCounts } from '@clearplay/contract';
import type { MessageKind } from '@clearplay/contract/constants';
import { serveApi } from '../../../test/fake-api.ts';
import { renderInApp } from '../../../test/render.tsx';
import { MessageBell } from './MessageBell.tsx';

const item = (id: number, type: MessageKind, title: string, target: MessageItem['target']): MessageItem => ({
  id,
  type,
  event: type === 'notice' ? 'announcement' : 'subscription.renewal',
  title,
  content: type === 'notice' ? '发布了新公告。' : '请为店铺续费。',
  target,
  read: false,
  readTime: null,
  doneTime: null,
  createdTime: new Date().toISOString(),
});

const ANNOUNCEMENT: AnnouncementItem = {
  id: 7,
  title: '春节营业时间',
  type: 'notice',
  content: '<p>初七开工，<strong>初八</strong>起正常检测。</p>',
  pinned: 0,
  publishedTime: '2026-11-20T02:30:00.000Z',
  authorId: 1,
  authorName: '超级管理员',
  createdTime: '2026-11-20T02:30:00.000Z',
  updatedTime: '2026-11-20T02:30:00.000Z',
};

/** A box with `items`; the counts follow from them. */
function renderBell(items: MessageItem[]) {
  const counts = (): UnreadCounts => {
    const unread = items.filter((m) => !m.read);
    const of = (kind: MessageKind) => unread.filter((m) => m.type === kind).length;
    return { message: of('message'), notice: of('notice'), todo: of('todo'), total: unread.length };
  };
  const api = serveApi((call) => {
    if (call.path === '/api/admin/message/unread') return { status: 200, msg: 'ok', data: counts() };
    if (call.path === '/api/admin/message/list') {
      const list = items.filter((m) => m.type === call.query.get('type'));
      return { status: 200, msg: 'ok', data: { list, total: list.length, unread: counts() } };
    }
    if (call.path === '/api/admin/message/read') {
      const ids = (call.body as { ids: number[] }).ids;
      items = items.map((m) => (ids.includes(m.id) ? { ...m, read: true } : m));
      return { status: 200, msg: 'ok', data: { marked: ids.length, unread: counts() } };
    }
    if (call.path === '/api/admin/announcement/detail' && call.query.get('id') === '7')
      return { status: 200, msg: 'ok', data: ANNOUNCEMENT };
    return { status: 404, msg: `No such API: ${call.method} ${call.path}`, data: null };
  });
  const router = createMemoryRouter([{ path: '*', element: <MessageBell /> }], { initialEntries: ['/order/inspect'] });
  return { ...renderInApp(<RouterProvider router={router} />), api };
}

const activeTab = () => document.querySelector('.ant-tabs-tab-active [data-testid^="message-tab-"]')?.getAttribute('data-testid');

describe('the message bell', () => {
  it('opens on the first tab with unread items, not on an empty "messages" tab', async () => {
    const todos = [1, 2, 3, 4, 5].map((id) => item(id, 'todo', `店铺 shop0${id} 的订阅即将到期`, { type: 'subscription', id: 100 + id }));
    const { user } = renderBell(todos);
    await waitFor(() => expect(screen.getByTestId('message-badge').getAttribute('data-count')).toBe('5'));
    await user.click(screen.getByTestId('message-bell'));
    await waitFor(() => expect(activeTab()).toBe('message-tab-todo'));
    expect(await screen.findByText('店铺 shop01 的订阅即将到期')).toBeTruthy();
  });

  it('opens a notice as the announcement itself: title, body, author and date; the notice is read', async () => {
    const { user, api } = renderBell([item(11, 'notice', '春节营业时间', { type: 'announcement', id: 7 })]);
    await waitFor(() => expect(screen.getByTestId('message-badge').getAttribute('data-count')).toBe('1'));
    await user.click(screen.getByTestId('message-bell'));
    await user.click(await screen.findByTestId('message-item-11'));
    const reader = await screen.findByTestId('announcement-view');
    expect(within(reader).getByText('春节营业时间')).toBeTruthy();
    expect(within(reader).getByTestId('announcement-content').innerHTML).toBe(ANNOUNCEMENT.content);
    expect(within(reader).getByText(/超级管理员 · 2026-11-20/)).toBeTruthy();
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/admin/message/read')).toBe(true));
  });
});
