import type { AnnouncementItem, WorkplaceData } from '@clearplay/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, fieldOf, loginAs, type LoggedIn, type TestContext } from '../../test/context.ts';
import { ownImageUrl, sanitizeAnnouncementHtml } from './announcements.sanitize.ts';

/**
 * Announcements: publishing needs its permission, the list is pinned first then
 * newest, unknown ids are a clear 404, and the content is cleaned against real XSS payloads
 * (OWASP XSS filter evasion cheat sheet style) before it is stored.
 */

let ctx: TestContext;
let boss: LoggedIn;
let shop: LoggedIn;

beforeAll(async () => {
  ctx = await createTestContext();
  boss = await loginAs(ctx, 'super_admin');
  shop = await loginAs(ctx, 'shop');
});
afterAll(() => ctx?.destroy());

const add = (payload: Record<string, unknown>, as: LoggedIn = boss) =>
  call<AnnouncementItem>(ctx, 'POST', '/api/admin/announcement/add', { as, payload: { type: 'notice', title: 'T', ...payload } });

/** Nothing in clean HTML can run script. */
function assertInert(html: string): void {
  expect(html).not.toMatch(/<\s*(script|style|iframe|svg|object|embed|form|input|math|link|meta|base)/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/javascript:|vbscript:|data:/i);
  expect(html).not.toMatch(/expression\s*\(/i);
}

const PAYLOADS: [string, string][] = [
  ['<img src=x onerror=alert(1)>', ''],
  ['<IMG SRC="javascript:alert(\'XSS\');">', ''],
  ['<IMG SRC=javascript:alert(&quot;XSS&quot;)>', ''],
  ['<img src="/upload/files/a.png" onerror="alert(1)">', '<img src="/upload/files/a.png" />'],
  ['<svg onload=alert(1)><p>inside</p></svg>', ''],
  ['<svg/onload=alert(1)>', ''],
  ['<body onload=alert(1)>hello</body>', 'hello'],
  ['<a href="jav&#x09;ascript:alert(1)">x</a>', '<a rel="noopener noreferrer" target="_blank">x</a>'],
  [
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">y</a>',
    '<a rel="noopener noreferrer" target="_blank">y</a>',
  ],
  [
    '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">z</a>',
    '<a rel="noopener noreferrer" target="_blank">z</a>',
  ],
  ['<a href=" JaVaScRiPt:alert(1)">c</a>', '<a rel="noopener noreferrer" target="_blank">c</a>'],
  ['<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">d</a>', '<a rel="noopener noreferrer" target="_blank">d</a>'],
  ['<iframe src="https://evil.example">t</iframe><p>a</p>', '<p>a</p>'],
  ['<p style="width: expression(alert(1))">s</p>', '<p>s</p>'],
  ['<style>@import "javascript:alert(1)";</style><p>k</p>', '<p>k</p>'],
  ['<div style="background-image: url(javascript:alert(1))">u</div>', 'u'],
  ['<scr<script>ipt>alert(1)</script>', 'ipt&gt;alert(1)'],
  ['<<script>alert(1);//<</script>', '&lt;'],
  ['<p><strong>b<em>i</em></strong></p><ul><li>1</li></ul>', '<p><strong>b<em>i</em></strong></p><ul><li>1</li></ul>'],
  [
    '<a href="https://ex.com" onclick="x()" target="_self">ok</a>',
    '<a href="https://ex.com" rel="noopener noreferrer" target="_blank">ok</a>',
  ],
  ['<a href="mailto:a@b.c">m</a>', '<a href="mailto:a@b.c" rel="noopener noreferrer">m</a>'],
  ['<img src="data:image/png;base64,AAAA">', ''],
  ['<img src="//evil.example/upload/files/a.png">', ''],
  ['<img src="/upload/files/../../api/admin/user/logout">', ''],
  ['<img src="https://evil.example/x.png">', ''],
  ['<math><mi xlink:href="javascript:alert(1)">m</mi></math>', ''],
  ['<form action="https://evil"><input name=a></form>', ''],
  ['<details open ontoggle=alert(1)>', ''],
  ['<h2 onmouseover="alert(1)">Title</h2>', '<h2>Title</h2>'],
];

describe('the sanitizer', () => {
  it.each(PAYLOADS)('cleans %s', (payload, expected) => {
    const out = sanitizeAnnouncementHtml(payload, ['/upload/files']);
    expect(out).toBe(expected);
    assertInert(out);
  });

  it('keeps images only from our own storage (embedded host path or the bucket domain)', () => {
    expect(ownImageUrl('/upload/files/2026/a.png', ['/upload/files'])).toBe('/upload/files/2026/a.png');
    expect(ownImageUrl('/upload/filesX/a.png', ['/upload/files'])).toBeNull();
    expect(ownImageUrl('https://img.example.com/k/a.png', ['https://img.example.com'])).toBe('https://img.example.com/k/a.png');
    expect(ownImageUrl('https://img.example.com.evil.io/a.png', ['https://img.example.com'])).toBeNull();
    expect(ownImageUrl('https://user@img.example.com/a.png', ['https://img.example.com'])).toBeNull();
    expect(ownImageUrl('/upload/files/a.png', ['https://img.example.com'])).toBeNull();
  });
});

describe('announcement calls', () => {
  it('publishes with announcement:create, stores the cleaned HTML, and lists pinned first then newest', async () => {
    const first = await add({ title: ' First ', content: '<p>one <script>alert(1)</script><img src=x onerror=alert(1)></p>' });
    expect(first.status, first.msg).toBe(200);
    expect(first.data).toMatchObject({ title: 'First', type: 'notice', content: '<p>one </p>', pinned: 0, authorId: boss.id });
    const pinned = await add({ title: 'Pinned', type: 'activity', content: '<p><strong>top</strong></p>', pinned: 1 });
    const third = await add({ title: 'Third', type: 'news', content: '<ul><li>a</li></ul>' });
    expect(third.status, third.msg).toBe(200);

    const row = await ctx.db.selectFrom('announcements').select('content').where('id', '=', first.data.id).executeTakeFirstOrThrow();
    expect(row.content).toBe('<p>one </p>');

    const list = await call<{ list: AnnouncementItem[]; total: number }>(ctx, 'GET', '/api/admin/announcement/list?page=1&pageSize=10', {
      as: shop,
    });
    expect(list.status).toBe(200);
    expect(list.data.total).toBe(3);
    expect(list.data.list.map((a) => a.id)).toEqual([pinned.data.id, third.data.id, first.data.id]);
    const news = await call<{ list: AnnouncementItem[]; total: number }>(ctx, 'GET', '/api/admin/announcement/list?type=news', {
      as: shop,
    });
    expect(news.data.list.map((a) => a.id)).toEqual([third.data.id]);
    expect(news.data.total).toBe(1);

    const w = await call<WorkplaceData>(ctx, 'GET', '/api/admin/workplace', { as: boss });
    expect(w.data.announcements.map((a) => a.id)).toEqual([pinned.data.id, third.data.id, first.data.id]);
  });

  it('writes one notice per enabled user into the message box with the announcement, and takes them away with it', async () => {
    const enabled = await ctx.db.selectFrom('users').select('id').where('status', '=', 1).execute();
    const item = await add({ title: 'Maintenance tonight', content: '<p>22:00</p>' });
    expect(item.status, item.msg).toBe(200);
    const notices = () =>
      ctx.db
        .selectFrom('messages')
        .select(['userId', 'kind'])
        .where('targetType', '=', 'announcement')
        .where('targetId', '=', item.data.id)
        .execute();
    const written = await notices();
    expect(written.map((m) => m.userId).sort((a, b) => a - b)).toEqual(enabled.map((u) => u.id).sort((a, b) => a - b));
    expect(new Set(written.map((m) => m.kind))).toEqual(new Set(['notice']));
    const box = await call<{ list: { title: string }[] }>(ctx, 'GET', '/api/admin/message/list?type=notice&page=1&pageSize=50', {
      as: shop,
    });
    expect(box.data.list.map((m) => m.title)).toContain('Maintenance tonight');
    const del = await call(ctx, 'GET', `/api/admin/announcement/delete?id=${item.data.id}`, { as: boss });
    expect(del.status, del.msg).toBe(200);
    expect(await notices()).toEqual([]);
  });

  it('refuses bad input with a 400 naming the problem', async () => {
    const empty = await add({ title: '   ', content: '<p>x</p>' });
    expect([empty.http, fieldOf(empty.data)]).toEqual([400, 'title']);
    const long = await add({ title: 'x'.repeat(101), content: '<p>x</p>' });
    expect(long.http).toBe(400);
    expect(long.msg).toContain('100');
    const onlyScript = await add({ content: '<script>alert(1)</script><iframe src=x></iframe>' });
    expect([onlyScript.http, fieldOf(onlyScript.data)]).toEqual([400, 'content']);
    const big = await add({ content: `<p>${'a'.repeat(20_001)}</p>` });
    expect(big.http).toBe(400);
    expect(big.msg).toContain('20000');
    const type = await add({ type: 'rumour', content: '<p>x</p>' });
    expect(type.http).toBe(400);
    expect(type.msg).toContain('rumour');
    expect((await call(ctx, 'GET', '/api/admin/announcement/list')).http).toBe(401);
  });

  it('needs announcement:create to publish and announcement:delete to delete; an unknown id is a 404', async () => {
    expect((await add({ content: '<p>x</p>' }, shop)).http).toBe(403);
    const admin = await loginAs(ctx, 'admin');
    expect((await add({ content: '<p>x</p>' }, admin)).http).toBe(403);
    const item = await add({ content: '<p>gone soon</p>' });
    expect((await call(ctx, 'GET', `/api/admin/announcement/delete?id=${item.data.id}`, { as: admin })).http).toBe(403);
    const del = await call(ctx, 'GET', `/api/admin/announcement/delete?id=${item.data.id}`, { as: boss });
    expect(del.status, del.msg).toBe(200);
    const again = await call(ctx, 'GET', `/api/admin/announcement/delete?id=${item.data.id}`, { as: boss });
    expect(again.http).toBe(404);
    expect(again.msg).toContain(String(item.data.id));
    expect((await call(ctx, 'GET', '/api/admin/announcement/delete?id=abc', { as: boss })).http).toBe(400);
  });
});

/**
 * A shop's notice said only "A new announcement was published." and no page showed a shop the
 * body. Every signed-in role reads a published announcement (stored sanitized); a stranger none.
 */
describe('reading one announcement', () => {
  it('answers any signed-in role the title, the sanitized body, the date and the author; a stranger gets 401', async () => {
    const published = await add({ title: '春节营业时间', content: '<p onclick="x()">初七开工<script>alert(1)</script></p>' });
    expect(published.status, published.msg).toBe(200);
    const id = published.data.id;
    for (const role of ['shop', 'inspector', 'admin']) {
      const reader = role === 'shop' ? shop : await loginAs(ctx, role);
      const res = await call<AnnouncementItem>(ctx, 'GET', `/api/admin/announcement/detail?id=${id}`, { as: reader });
      expect(res.status, `${role}: ${res.msg}`).toBe(200);
      expect(res.data).toMatchObject({ id, title: '春节营业时间', content: '<p>初七开工</p>', authorName: published.data.authorName });
      expect(res.data.publishedTime).toBe(published.data.publishedTime);
      assertInert(res.data.content);
    }
    expect((await call(ctx, 'GET', `/api/admin/announcement/detail?id=${id}`)).status).toBe(401);
  });

  it('an unknown or deleted announcement is a 404 naming it, a bad id a 400', async () => {
    const gone = await add({ title: 'gone', content: '<p>x</p>' });
    await call(ctx, 'GET', `/api/admin/announcement/delete?id=${gone.data.id}`, { as: boss });
    const res = await call(ctx, 'GET', `/api/admin/announcement/detail?id=${gone.data.id}`, {
      as: shop,
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.status).toBe(404);
    expect(res.msg).toBe(`Announcement #${gone.data.id} does not exist`);
    expect((await call(ctx, 'GET', '/api/admin/announcement/detail?id=abc', { as: shop })).status).toBe(400);
  });
});
