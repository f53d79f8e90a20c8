/**
 * FROZEN. Roles in both languages (decision 0080): an English description beside the Chinese
 * one (`roles.description_en`), null when not given (readers then fall back to the Chinese
 * text, the rule of the dictionaries' English labels, migration 0013).
 *
 * Data step: the four built-in roles get their English text here, matched by name, only where
 * the Chinese description is still the seeded one (a description an administrator rewrote is
 * not translated by guess) and no English text exists. The words are written out in this file
 * on purpose: a migration never imports the app (seed.ts holds the same words for new databases).
 */
import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

/** [role name, seeded Chinese description, English description] */
const DESCRIPTIONS: readonly (readonly [string, string, string])[] = [
  ['super_admin', '超级管理员：拥有全部功能', 'Super administrator: every feature'],
  ['admin', '管理员：订单的全部操作', 'Administrator: every order operation'],
  [
    'inspector',
    '检测员：查看全部订单，录入、导入并编辑自己检测的订单',
    'Inspector: sees every order; enters, imports and edits the orders they inspected',
  ],
  [
    'shop',
    '店铺：查看本店订单与其他店铺的公开订单，导出本店订单',
    "Shop: sees its own orders and other shops' public orders; exports its own orders",
  ],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('roles').addColumn('description_en', 'varchar(255)').execute();
  for (const [name, description, english] of DESCRIPTIONS) {
    await db
      .updateTable('roles')
      .set({ description_en: english })
      .where('name', '=', name)
      .where('description', '=', description)
      .where('description_en', 'is', null)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('roles').dropColumn('description_en').execute();
}
