/**
 * First-start data: the four roles of docs/product.md "People and what each may do", one super_admin account, and the
 * dictionaries the product uses. Idempotent: each part is written only when absent, so a
 * restart changes nothing (in particular not the admin password).
 */
import { RoleName, SEEDED_ROLE_PERMISSIONS } from '@clearplay/contract';
import { generatePassword, hashPassword } from '../lib/passwords.ts';
import { nowMs } from '../lib/time.ts';
import { insertReturningId } from './dialect.ts';
import { isRetryableConflict, isUniqueViolation } from './errors.ts';
import { writeTransaction } from './write-transaction.ts';
import type { Insertable } from 'kysely';
import type { Db } from './index.ts';
import type { Database } from './schema.ts';

export const SUPERADMIN_USERNAME = 'superadmin';
export const DEMO_PASSWORD = 'demo123456';
export const DEMO_USERS = [
  { username: 'admin01', nickname: '管理员01', role: RoleName.ADMIN },
  { username: 'inspector01', nickname: '检测员01', role: RoleName.INSPECTOR },
  { username: 'shop0001', nickname: '演示店铺01', role: RoleName.SHOP },
] as const;

/** The demo shop's prices in fen (normal, cheating, not pass, suspicious): ¥30, ¥50, ¥20, ¥40. */
export const DEMO_SHOP_PRICES = {
  defaultPrice: 3000,
  defaultPriceCheat: 5000,
  defaultPriceNotPass: 2000,
  defaultPriceSuspect: 4000,
} as const;

/** The built-in roles in English (decision 0080); migration 0015 writes the same words into older databases. */
export const ROLE_DESCRIPTIONS_EN = {
  super_admin: 'Super administrator: every feature',
  admin: 'Administrator: every order operation',
  inspector: 'Inspector: sees every order; enters, imports and edits the orders they inspected',
  shop: "Shop: sees its own orders and other shops' public orders; exports its own orders",
} as const;

const ROLES = [
  { name: RoleName.SUPER_ADMIN, description: '超级管理员：拥有全部功能', isAdmin: 1 },
  { name: RoleName.ADMIN, description: '管理员：订单的全部操作', isAdmin: 1 },
  { name: RoleName.INSPECTOR, description: '检测员：查看全部订单，录入、导入并编辑自己检测的订单', isAdmin: 0 },
  { name: RoleName.SHOP, description: '店铺：查看本店订单与其他店铺的公开订单，导出本店订单', isAdmin: 0 },
] as const;

interface SeedDictData {
  label: string;
  /** The English label: seeded in both languages. */
  labelEn: string;
  value: string;
  listClass?: string;
  cssClass?: string;
  isDefault?: boolean;
  remark?: string;
}

const yesNo = (yes: [string, string], no: [string, string], yesClass = 'success', noClass = 'default'): SeedDictData[] => [
  { label: yes[0], labelEn: yes[1], value: '1', listClass: yesClass },
  { label: no[0], labelEn: no[1], value: '0', listClass: noClass, isDefault: true },
];

/** [Chinese name (also the stored value), English name] */
const games = [
  ['和平精英', 'Game for Peace'],
  ['王者荣耀', 'Honor of Kings'],
  ['三角洲行动', 'Delta Force'],
  ['无畏契约', 'VALORANT'],
  ['CS2', 'CS2'],
  ['英雄联盟', 'League of Legends'],
  ['永劫无间', 'NARAKA: BLADEPOINT'],
] as const;

/** Every dictionary in both languages (migration 0013 gave databases seeded earlier the same English text). */
export const DICTIONARIES: readonly { code: string; name: string; nameEn: string; remark: string; data: SeedDictData[] }[] = [
  {
    code: 'order_result',
    name: '检测结果',
    nameEn: 'Result',
    remark: '检测订单的结果',
    data: [
      { label: '正常', labelEn: 'Normal', value: '0', listClass: 'success', isDefault: true },
      { label: '作弊', labelEn: 'Cheating', value: '1', listClass: 'danger' },
      { label: '未通过', labelEn: 'Not passed', value: '2', listClass: 'info' },
      { label: '可疑', labelEn: 'Suspicious', value: '3', listClass: 'warning' },
    ],
  },
  {
    code: 'common_status',
    name: '通用状态',
    nameEn: 'Status',
    remark: '启用 / 停用',
    data: [
      { label: '启用', labelEn: 'Enabled', value: '1', listClass: 'success', isDefault: true },
      { label: '停用', labelEn: 'Disabled', value: '0', listClass: 'danger' },
    ],
  },
  { code: 'yes_no', name: '是否', nameEn: 'Yes / no', remark: '是 / 否', data: yesNo(['是', 'Yes'], ['否', 'No'], 'primary') },
  {
    code: 'public_private',
    name: '公开状态',
    nameEn: 'Visibility',
    remark: '检测记录是否公开',
    data: yesNo(['公开', 'Public'], ['私密', 'Private'], 'success'),
  },
  {
    code: 'changed_mac',
    name: '是否更换 MAC',
    nameEn: 'MAC changed',
    remark: '检测对象是否更换过 MAC 地址',
    data: yesNo(['已更换', 'Changed'], ['未更换', 'Not changed'], 'warning'),
  },
  {
    code: 'game',
    name: '游戏',
    nameEn: 'Game',
    remark: '检测订单可选的游戏',
    data: games.map(([g, en], i) => ({ label: g, labelEn: en, value: g, listClass: 'default', isDefault: i === 0 })),
  },
  {
    code: 'linkstore',
    name: '链接商店',
    nameEn: 'Link store',
    remark: '链接页的链接：标签为标题，值为网址，样式为图标',
    data: [
      { label: '和平精英官网', labelEn: 'Game for Peace official site', value: 'https://gp.qq.com/', cssClass: 'icon-game' },
      { label: '王者荣耀官网', labelEn: 'Honor of Kings official site', value: 'https://pvp.qq.com/', cssClass: 'icon-game' },
      { label: '三角洲行动官网', labelEn: 'Delta Force official site', value: 'https://df.qq.com/', cssClass: 'icon-game' },
      { label: '无畏契约官网', labelEn: 'VALORANT official site', value: 'https://val.qq.com/', cssClass: 'icon-game' },
    ],
  },
  {
    code: 'announcement_type',
    name: '公告类型',
    nameEn: 'Announcement type',
    remark: '公告的类型：通知、活动、新闻',
    data: [
      { label: '通知', labelEn: 'Notice', value: 'notice', listClass: 'primary', isDefault: true },
      { label: '活动', labelEn: 'Event', value: 'activity', listClass: 'success' },
      { label: '新闻', labelEn: 'News', value: 'news', listClass: 'info' },
    ],
  },
  {
    code: 'public_price',
    name: '公开价格',
    nameEn: 'Public prices',
    remark: '首页公布的检测价格：标签为结果，值为价格（分）',
    data: [],
  },
];

export interface SeedOptions {
  initAdminPassword: string | undefined;
  demo: boolean;
  /** The time the rows are created at (default: now). */
  now?: number;
}

export interface SeedResult {
  /** Set when this run created the super admin; `generated` means nobody else knows the password yet. */
  admin: { username: string; password: string; generated: boolean } | null;
  demoUsers: string[];
  rolesCreated: boolean;
  dictsCreated: boolean;
}

const count = async (db: Db, table: 'roles' | 'users' | 'dictTypes'): Promise<number> => {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** A user row as a first start writes it: enabled, no contact details, prices 0 unless `extra` says. */
export const newUserRow = (
  username: string,
  nickname: string,
  roleId: number,
  passwordHash: string,
  createdAt: number,
  extra: Partial<Insertable<Database['users']>> = {},
): Insertable<Database['users']> => ({
  username,
  passwordHash,
  nickname,
  roleId,
  wechat: '',
  phone: '',
  avatar: '',
  ifPublic: 0,
  status: 1,
  defaultPrice: 0,
  defaultPriceCheat: 0,
  defaultPriceSuspect: 0,
  defaultPriceNotPass: 0,
  serviceEndAt: null,
  loginAt: null,
  passwordChangedAt: createdAt,
  createdAt,
  updatedAt: createdAt,
  ...extra,
});

async function newUser(
  db: Db,
  username: string,
  nickname: string,
  roleId: number,
  passwordHash: string,
  now: number,
  extra: Partial<Insertable<Database['users']>> = {},
) {
  await insertReturningId(db, 'users', newUserRow(username, nickname, roleId, passwordHash, now, extra));
}

/**
 * Runs one part in a transaction. Another process seeding the same part at the same time
 * is not an error: a unique violation means it won; a deadlock means run again (and then
 * find its rows).
 */
async function once<T>(db: Db, part: (trx: Db) => Promise<T>, whenRaced: T): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeTransaction(db, part);
    } catch (error) {
      if (isUniqueViolation(error)) return whenRaced;
      if (!isRetryableConflict(error) || attempt >= 5) throw error;
    }
  }
}

export async function seed(db: Db, options: SeedOptions): Promise<SeedResult> {
  const now = options.now ?? nowMs();
  const result: SeedResult = { admin: null, demoUsers: [], rolesCreated: false, dictsCreated: false };

  result.rolesCreated = await once(
    db,
    async (trx) => {
      if ((await count(trx, 'roles')) > 0) return false;
      for (const role of ROLES) {
        await insertReturningId(trx, 'roles', {
          ...role,
          descriptionEn: ROLE_DESCRIPTIONS_EN[role.name],
          permissions: JSON.stringify(SEEDED_ROLE_PERMISSIONS[role.name]),
          createdAt: now,
        });
      }
      return true;
    },
    false,
  );

  const roleIds = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id] as const));
  const roleId = (name: string): number => {
    const id = roleIds.get(name);
    if (id === undefined) throw new Error(`Seeding needs the role "${name}", which is missing`);
    return id;
  };

  if ((await count(db, 'users')) === 0) {
    const generated = options.initAdminPassword === undefined;
    const password = options.initAdminPassword ?? generatePassword(16);
    const passwordHash = await hashPassword(password);
    result.admin = await once(
      db,
      async (trx) => {
        if ((await count(trx, 'users')) > 0) return null;
        // In a demo (--demo) the first super admin is a demo account too: exempt from two-step verification (decision 0091).
        await newUser(trx, SUPERADMIN_USERNAME, '超级管理员', roleId(RoleName.SUPER_ADMIN), passwordHash, now, {
          totpExempt: options.demo ? 1 : 0,
        });
        return { username: SUPERADMIN_USERNAME, password, generated };
      },
      null,
    );
  }

  // One argon2id hash for every demo account, made only when one is missing (a restart with the flag hashes nothing).
  let demoHash: Promise<string> | undefined;
  const demoPasswordHash = () => (demoHash ??= hashPassword(DEMO_PASSWORD));
  if (options.demo) {
    for (const demo of DEMO_USERS) {
      const exists = async (conn: Db) =>
        (await conn.selectFrom('users').select('id').where('username', '=', demo.username).executeTakeFirst()) !== undefined;
      if (await exists(db)) continue;
      const hash = await demoPasswordHash();
      const created = await once(
        db,
        async (trx) => {
          if (await exists(trx)) return false;
          await newUser(
            trx,
            demo.username,
            demo.nickname,
            roleId(demo.role),
            hash,
            now,
            // Demo accounts (a published password) are never required to use two-step verification (decision 0091).
            { ...(demo.role === RoleName.SHOP ? DEMO_SHOP_PRICES : {}), totpExempt: 1 },
          );
          return true;
        },
        false,
      );
      if (created) result.demoUsers.push(demo.username);
    }
  }

  result.dictsCreated = await once(
    db,
    async (trx) => {
      if ((await count(trx, 'dictTypes')) > 0) return false;
      for (const type of DICTIONARIES) {
        await trx
          .insertInto('dictTypes')
          .values({ code: type.code, name: type.name, nameEn: type.nameEn, status: 1, remark: type.remark, createdAt: now })
          .execute();
        let sort = 0;
        for (const item of type.data) {
          await trx
            .insertInto('dictData')
            .values({
              typeCode: type.code,
              label: item.label,
              labelEn: item.labelEn,
              value: item.value,
              sort: sort++,
              cssClass: item.cssClass ?? '',
              listClass: item.listClass ?? 'default',
              isDefault: item.isDefault === true ? 1 : 0,
              parentId: null,
              status: 1,
              remark: item.remark ?? '',
              createdAt: now,
            })
            .execute();
        }
      }
      return true;
    },
    false,
  );

  return result;
}
