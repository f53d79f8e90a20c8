import { ORDER_DICTS } from '@clearplay/contract';
import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.ts';
import { lowerAsDb } from '../../db/text-search.ts';
import type { Db } from '../../db/index.ts';

/** The columns a public page may show: never amount, client, inspector, MAC or images. */
const PUBLIC_COLUMNS = [
  'orders.code',
  'orders.objWechat',
  'orders.gameName',
  'orders.result',
  'orders.createdAt',
  'resultDict.label as resultLabel',
  'resultDict.labelEn as resultLabelEn',
  'resultDict.listClass as resultClass',
  'gameDict.label as gameLabel',
  'gameDict.labelEn as gameLabelEn',
] as const;

export type PublicOrderRow = {
  code: string;
  objWechat: string;
  gameName: string;
  result: number;
  createdAt: number;
  resultLabel: string | null;
  resultLabelEn: string | null;
  resultClass: string | null;
  gameLabel: string | null;
  gameLabelEn: string | null;
};

/** Orders with their result's and game's dictionary entries (labels, tag colour) joined, so a call is one query. */
const ordersWithResult = (db: Db) =>
  db
    .selectFrom('orders')
    .leftJoin('dictData as gameDict', (join) =>
      join.on('gameDict.typeCode', '=', ORDER_DICTS.game).onRef('gameDict.value', '=', 'orders.gameName'),
    )
    .leftJoin('dictData as resultDict', (join) =>
      join
        .on('resultDict.typeCode', '=', ORDER_DICTS.result)
        .on(
          'resultDict.value',
          '=',
          sql<string>`cast(${sql.ref('orders.result')} as ${sql.raw(dialectOf(db) === 'mysql' ? 'char' : 'text')})`,
        ),
    );

/**
 * Public orders whose chat ID equals `chatId` case-insensitively, newest first. The
 * comparison is the order list's (lower of the trimmed text, folded as the database folds),
 * but exact: SQLite and PostgreSQL answer it from 0004's lower(obj_wechat) index, MySQL from
 * 0008's indexed invisible column. Private orders are filtered by the same query, so they
 * cost the same as no order.
 */
export const publicOrdersByChatId = (db: Db, chatId: string, limit: number): Promise<PublicOrderRow[]> =>
  publicOrdersByChatIdQuery(db, chatId, limit).execute();

/** The look-up's query, unexecuted (the bench runs it raw beside the call). */
export function publicOrdersByChatIdQuery(db: Db, chatId: string, limit: number) {
  const low = lowerAsDb(db, chatId);
  const match =
    dialectOf(db) === 'mysql'
      ? sql<boolean>`${sql.ref('orders.obj_wechat_lower')} = ${low}`
      : sql<boolean>`lower(${sql.ref('orders.objWechat')}) = ${low}`;
  return ordersWithResult(db)
    .select(PUBLIC_COLUMNS)
    .where(match)
    .where('orders.ifPublic', '=', 1)
    .orderBy('orders.createdAt', 'desc')
    .orderBy('orders.id', 'desc')
    .limit(limit);
}

/** The public order with this code (orders_code_idx), if any. */
export const publicOrderByCode = (db: Db, code: string): Promise<PublicOrderRow | undefined> =>
  publicOrderByCodeQuery(db, code).executeTakeFirst();

export const publicOrderByCodeQuery = (db: Db, code: string) =>
  ordersWithResult(db).select(PUBLIC_COLUMNS).where('orders.code', '=', code).where('orders.ifPublic', '=', 1);

/** Every order counted by order_daily, and those with the result "cheating" (a few thousand counter rows, no order is read). */
export async function orderFigures(db: Db, cheatingResult: number): Promise<{ checks: number; cheaters: number }> {
  const row = await orderFiguresQuery(db, cheatingResult).executeTakeFirstOrThrow();
  return { checks: Number(row.checks), cheaters: Number(row.cheaters) };
}

export const orderFiguresQuery = (db: Db, cheatingResult: number) =>
  db
    .selectFrom('orderDaily')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('n'), sql<number>`0`).as('checks'),
      eb.fn
        .coalesce(eb.fn.sum<number>(eb.case().when('result', '=', cheatingResult).then(eb.ref('n')).else(0).end()), sql<number>`0`)
        .as('cheaters'),
    ]);
