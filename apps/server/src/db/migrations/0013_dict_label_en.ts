/**
 * FROZEN. Dictionaries in both languages (issue 15, decision 0066): an English label beside
 * the Chinese one on dictionary entries (`dict_data.label_en`) and an English name on
 * dictionary types (`dict_types.name_en`), empty when not given (readers then fall back to
 * the Chinese text).
 *
 * Data step: the entries and types the product seeds before this migration get their English
 * text here, matched by type code and value (an entry renamed or added by an administrator
 * keeps an empty English label). The words are written out in this file on purpose: a
 * migration never imports the app.
 */
import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

const TYPE_NAMES: Record<string, string> = {
  order_result: 'Result',
  common_status: 'Status',
  yes_no: 'Yes / no',
  public_private: 'Visibility',
  changed_mac: 'MAC changed',
  game: 'Game',
  linkstore: 'Link store',
  announcement_type: 'Announcement type',
  public_price: 'Public prices',
};

/** [type code, value, English label] */
const LABELS: readonly (readonly [string, string, string])[] = [
  ['order_result', '0', 'Normal'],
  ['order_result', '1', 'Cheating'],
  ['order_result', '2', 'Not passed'],
  ['order_result', '3', 'Suspicious'],
  ['common_status', '1', 'Enabled'],
  ['common_status', '0', 'Disabled'],
  ['yes_no', '1', 'Yes'],
  ['yes_no', '0', 'No'],
  ['public_private', '1', 'Public'],
  ['public_private', '0', 'Private'],
  ['changed_mac', '1', 'Changed'],
  ['changed_mac', '0', 'Not changed'],
  ['game', '和平精英', 'Game for Peace'],
  ['game', '王者荣耀', 'Honor of Kings'],
  ['game', '三角洲行动', 'Delta Force'],
  ['game', '无畏契约', 'VALORANT'],
  ['game', 'CS2', 'CS2'],
  ['game', '英雄联盟', 'League of Legends'],
  ['game', '永劫无间', 'NARAKA: BLADEPOINT'],
  ['linkstore', 'https://gp.qq.com/', 'Game for Peace official site'],
  ['linkstore', 'https://pvp.qq.com/', 'Honor of Kings official site'],
  ['linkstore', 'https://df.qq.com/', 'Delta Force official site'],
  ['linkstore', 'https://val.qq.com/', 'VALORANT official site'],
  ['announcement_type', 'notice', 'Notice'],
  ['announcement_type', 'activity', 'Event'],
  ['announcement_type', 'news', 'News'],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('dict_data')
    .addColumn('label_en', 'varchar(255)', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('dict_types')
    .addColumn('name_en', 'varchar(128)', (col) => col.notNull().defaultTo(''))
    .execute();
  for (const [code, name] of Object.entries(TYPE_NAMES)) {
    await db.updateTable('dict_types').set({ name_en: name }).where('code', '=', code).where('name_en', '=', '').execute();
  }
  for (const [code, value, label] of LABELS) {
    await db
      .updateTable('dict_data')
      .set({ label_en: label })
      .where('type_code', '=', code)
      .where('value', '=', value)
      .where('label_en', '=', '')
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('dict_types').dropColumn('name_en').execute();
  await db.schema.alterTable('dict_data').dropColumn('label_en').execute();
}
