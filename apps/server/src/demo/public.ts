/**
 * The demo's public pages: published prices per result and a tree of links in the
 * link store, written once with the rest of the demo business (write.ts), through the
 * dictionaries' repository. Fixed data (nothing random), so every demo database shows the
 * same landing page and link store. An entry whose value the type already has is left as it is.
 */
import { LINKSTORE_DICT, PUBLIC_PRICE_DICT } from '@clearplay/contract';
import type { Db } from '../db/index.ts';
import * as dictRepo from '../modules/dicts/dicts.repository.ts';

interface DemoEntry {
  label: string;
  /** English label: the demo's entries are in both languages. */
  labelEn: string;
  value: string;
  remark?: string;
  /** English remark (decision 0097): the price's note, the link's description in English. */
  remarkEn?: string;
  cssClass?: string;
  children?: DemoEntry[];
}

/** Prices in fen, per result, as the demo shop's (db/seed.ts DEMO_SHOP_PRICES). */
export const DEMO_PUBLIC_PRICES: readonly DemoEntry[] = [
  {
    label: '正常',
    labelEn: 'Normal',
    value: '3000',
    remark: '未发现问题，出具检测证书',
    remarkEn: 'No problem found; a check certificate is issued',
  },
  {
    label: '作弊',
    labelEn: 'Cheating',
    value: '5000',
    remark: '发现外挂，记录证据并可公开',
    remarkEn: 'Cheat software found; the evidence is recorded and may be made public',
  },
  {
    label: '可疑',
    labelEn: 'Suspicious',
    value: '4000',
    remark: '存在可疑项，建议复检',
    remarkEn: 'Something suspicious was found; a re-check is advised',
  },
  { label: '未通过', labelEn: 'Not passed', value: '2000', remark: '未能完成检测', remarkEn: 'The check could not be completed' },
];

/** Two groups with links under them (the seed's flat game sites stay as "more links"). */
export const DEMO_LINKS: readonly DemoEntry[] = [
  {
    label: '检测工具',
    labelEn: 'Inspection tools',
    value: 'https://learn.microsoft.com/sysinternals/',
    remark: '检测员常用的系统工具',
    remarkEn: 'System tools inspectors use every day',
    cssClass: 'icon-tool',
    children: [
      {
        label: 'Process Explorer',
        labelEn: 'Process Explorer',
        value: 'https://learn.microsoft.com/sysinternals/downloads/process-explorer',
        remark: '查看进程与加载的模块',
        remarkEn: 'See processes and the modules they load',
        cssClass: 'icon-tool',
      },
      {
        label: 'Autoruns',
        labelEn: 'Autoruns',
        value: 'https://learn.microsoft.com/sysinternals/downloads/autoruns',
        remark: '查看开机自启项',
        remarkEn: 'See what starts with Windows',
        cssClass: 'icon-tool',
      },
    ],
  },
  {
    label: '反作弊说明',
    labelEn: 'Anti-cheat policies',
    value: 'https://www.anticheatexpert.com/',
    remark: '游戏厂商的反作弊政策与公告',
    remarkEn: "Game publishers' anti-cheat policies and notices",
    cssClass: 'icon-doc',
    children: [
      {
        label: '腾讯游戏安全中心',
        labelEn: 'Tencent Game Security Center',
        value: 'https://gamesafe.qq.com/',
        remark: '举报外挂、查询处罚公告',
        remarkEn: 'Report cheats and look up ban notices',
        cssClass: 'icon-community',
      },
      {
        label: 'Valve 反作弊（VAC）',
        labelEn: 'Valve Anti-Cheat (VAC)',
        value: 'https://help.steampowered.com/faqs/view/571A-97DA-70E9-FF74',
        cssClass: 'icon-doc',
      },
    ],
  },
];

async function writeEntries(
  trx: Db,
  typeCode: string,
  entries: readonly DemoEntry[],
  parentId: number | null,
  now: number,
): Promise<number> {
  let written = 0;
  for (const [sort, entry] of entries.entries()) {
    const existing = await dictRepo.findDataByValue(trx, typeCode, entry.value);
    const id =
      existing?.id ??
      (await dictRepo.insertData(trx, {
        typeCode,
        label: entry.label,
        labelEn: entry.labelEn,
        value: entry.value,
        sort,
        cssClass: entry.cssClass ?? '',
        listClass: 'default',
        isDefault: 0,
        parentId,
        status: 1,
        remark: entry.remark ?? '',
        remarkEn: entry.remarkEn ?? '',
        createdAt: now,
      }));
    if (existing === undefined) written += 1;
    if (entry.children) written += await writeEntries(trx, typeCode, entry.children, id, now);
  }
  return written;
}

/** Writes the demo's prices and links; answers how many entries it added. */
export async function writeDemoPublic(trx: Db, now: number): Promise<number> {
  return (
    (await writeEntries(trx, PUBLIC_PRICE_DICT, DEMO_PUBLIC_PRICES, null, now)) +
    (await writeEntries(trx, LINKSTORE_DICT, DEMO_LINKS, null, now))
  );
}
