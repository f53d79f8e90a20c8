/**
 * FROZEN. Server-written text in the reader's language (issue 23, decision 0097).
 *
 * - `operation_logs.event` and `operation_logs.params`: the event key of a log line and its
 *   parameters (JSON), told when the log is read in the reader's language. Null for the rows
 *   written before (their `content` is shown as it was written). Nullable, no default: a text
 *   column with a default is refused by older MySQL.
 * - `dict_data.remark_en`: the English text beside an entry's remark (a published price's note,
 *   a link's description), empty when not given (readers then fall back to the Chinese remark).
 *
 * Data step: the demo's published prices and links (`--demo`) written before this migration get
 * their English notes, matched by type code, value and the demo's own Chinese remark (a remark an
 * administrator rewrote is not translated by guess). The words are written out here on purpose:
 * a migration never imports the app (demo/public.ts holds the same words for new databases).
 */
import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

/** [type code, value, the demo's Chinese remark, English remark] */
const DEMO_REMARKS: readonly (readonly [string, string, string, string])[] = [
  ['public_price', '3000', '未发现问题，出具检测证书', 'No problem found; a check certificate is issued'],
  ['public_price', '5000', '发现外挂，记录证据并可公开', 'Cheat software found; the evidence is recorded and may be made public'],
  ['public_price', '4000', '存在可疑项，建议复检', 'Something suspicious was found; a re-check is advised'],
  ['public_price', '2000', '未能完成检测', 'The check could not be completed'],
  ['linkstore', 'https://learn.microsoft.com/sysinternals/', '检测员常用的系统工具', 'System tools inspectors use every day'],
  [
    'linkstore',
    'https://learn.microsoft.com/sysinternals/downloads/process-explorer',
    '查看进程与加载的模块',
    'See processes and the modules they load',
  ],
  ['linkstore', 'https://learn.microsoft.com/sysinternals/downloads/autoruns', '查看开机自启项', 'See what starts with Windows'],
  ['linkstore', 'https://www.anticheatexpert.com/', '游戏厂商的反作弊政策与公告', "Game publishers' anti-cheat policies and notices"],
  ['linkstore', 'https://gamesafe.qq.com/', '举报外挂、查询处罚公告', 'Report cheats and look up ban notices'],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('operation_logs').addColumn('event', 'varchar(64)').execute();
  await db.schema.alterTable('operation_logs').addColumn('params', 'text').execute();
  await db.schema
    .alterTable('dict_data')
    .addColumn('remark_en', 'varchar(512)', (col) => col.notNull().defaultTo(''))
    .execute();
  for (const [code, value, remark, english] of DEMO_REMARKS) {
    await db
      .updateTable('dict_data')
      .set({ remark_en: english })
      .where('type_code', '=', code)
      .where('value', '=', value)
      .where('remark', '=', remark)
      .where('remark_en', '=', '')
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('dict_data').dropColumn('remark_en').execute();
  await db.schema.alterTable('operation_logs').dropColumn('params').execute();
  await db.schema.alterTable('operation_logs').dropColumn('event').execute();
}
