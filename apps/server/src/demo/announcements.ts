/**
 * The demo's announcements: a handful of notices, activities and news over the demo
 * period, two of them pinned, published by the super admin. Written with the rest of the demo,
 * through the announcements repository, with the content passed through the same sanitizer as
 * a published one.
 */
import { DAY_MS, HOUR_MS } from '../lib/time.ts';
import type { Db } from '../db/index.ts';
import * as announcementsRepo from '../modules/announcements/announcements.repository.ts';
import { sanitizeAnnouncementHtml } from '../modules/announcements/announcements.service.ts';
import type { Rng } from './prng.ts';

interface DemoAnnouncement {
  title: string;
  type: 'notice' | 'activity' | 'news';
  pinned: boolean;
  /** Days before the demo's start time. */
  daysAgo: number;
  content: string;
}

export const DEMO_ANNOUNCEMENTS: readonly DemoAnnouncement[] = [
  {
    title: '检测服务价格调整通知',
    type: 'notice',
    pinned: true,
    daysAgo: 3,
    content:
      '<h2>价格调整</h2><p>自下月 1 日起，<strong>可疑</strong>结果的复检费用调整为每单 ¥40。</p><ul><li>已预付的店铺不受影响</li><li>月度套餐价格不变</li></ul>',
  },
  {
    title: '春节期间值班安排',
    type: 'notice',
    pinned: true,
    daysAgo: 12,
    content:
      '<p>春节期间检测员轮流值班，<em>提交后 2 小时内</em>出结果。</p><ol><li>除夕至初三：两名检测员</li><li>初四起：恢复正常排班</li></ol>',
  },
  {
    title: '新店铺首月充值赠送活动',
    type: 'activity',
    pinned: false,
    daysAgo: 20,
    content: '<p>本月新签约的店铺首次充值满 ¥1,000 赠送 <strong>¥100</strong> 检测额度。</p><p>详情咨询客服。</p>',
  },
  {
    title: '支持导入 CSV 文件',
    type: 'news',
    pinned: false,
    daysAgo: 33,
    content:
      '<p>检测记录的批量导入现在同时支持 <strong>xlsx</strong> 和 <strong>csv</strong> 文件，模板可在导入窗口下载。</p><p>参考：<a href="https://www.rfc-editor.org/rfc/rfc4180">RFC 4180</a></p>',
  },
  {
    title: '三角洲行动检测项目上线',
    type: 'news',
    pinned: false,
    daysAgo: 47,
    content: '<p>新增游戏 <strong>三角洲行动</strong> 的外挂检测，结果与其他游戏一样可公开查询。</p>',
  },
  {
    title: '老店铺推荐返利活动',
    type: 'activity',
    pinned: false,
    daysAgo: 70,
    content: '<p>推荐新店铺签约，双方各得一个月服务期延长。</p><ul><li>每家店铺最多推荐 5 家</li><li>活动截止到季度末</li></ul>',
  },
];

/** Writes the demo's announcements in the demo's transaction. */
export async function writeDemoAnnouncements(trx: Db, rng: Rng, now: number, author: { id: number | null; name: string }): Promise<number> {
  for (const a of [...DEMO_ANNOUNCEMENTS].reverse()) {
    const at = now - a.daysAgo * DAY_MS - rng.int(0, 8) * HOUR_MS;
    await announcementsRepo.insert(trx, {
      title: a.title,
      type: a.type,
      content: sanitizeAnnouncementHtml(a.content, []),
      pinned: a.pinned ? 1 : 0,
      publishedAt: at,
      authorId: author.id,
      authorName: author.name,
      createdAt: at,
      updatedAt: at,
    });
  }
  return DEMO_ANNOUNCEMENTS.length;
}
