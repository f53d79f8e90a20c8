// The books after a load (docs/reliability.md "Load"): read straight from the database beside the server,
// once the run has ended and the server has finished what it was given.
// - every acknowledged create is there, under the id and code it was answered with;
// - what apps/server/src/reliability/books.ts checks: no verification code twice, every user's
//   balance the sum of their ledger, the order counters equal to a recount of the orders;
// - the workplace's figures (total, per result, balance) equal a recount of the rows;
// - the run's orders in the database minus the acknowledged creates equals the creates that got
//   no answer (sent, never answered: a timeout, or still in flight when the run ended), and none
//   of them is a create that was refused.
import { CompiledQuery } from 'kysely';
import { readBooks } from '../apps/server/src/reliability/books.ts';
import type { Proc } from './lib.ts';
import type { MixedResult } from './mixed-load.ts';
import { appOn, type Target } from './targets.ts';

export interface Books {
  /** The checks that failed, each a sentence; empty when the books hold. */
  broken: string[];
  /** Orders of the run found in the database. */
  inDatabase: number;
  acked: number;
  /** Creates sent that got no answer. */
  unanswered: number;
  /** Creates answered with a refusal or an error. */
  refused: number;
  ordersTotal: number;
  usersChecked: number;
}

const rows = async <T>(target: Target, sql: string): Promise<T[]> => (await target.raw.run(CompiledQuery.raw(sql))) as T[];
const num = (v: unknown) => Number(v ?? 0);

export async function checkBooks(target: Target, app: Proc, adminBearer: string, run: MixedResult): Promise<Books> {
  const broken: string[] = [];
  const { sent, acked } = run.creates;
  const prefix = sent[0]?.replace(/_\d+$/, '_') ?? 'load_none_';
  // The run's orders: their chat IDs carry the run's prefix.
  const ours = await rows<{ id: unknown; code: string; obj_wechat: string }>(
    target,
    `select id, code, obj_wechat from orders where obj_wechat like '${prefix.replace(/'/g, "''")}%'`,
  );
  const byChat = new Map<string, { id: number; code: string }[]>();
  for (const o of ours) byChat.set(o.obj_wechat, [...(byChat.get(o.obj_wechat) ?? []), { id: num(o.id), code: o.code }]);

  let missing = 0;
  for (const a of acked) {
    const found = byChat.get(a.objWechat) ?? [];
    if (!found.some((o) => o.id === a.id && o.code === a.code)) missing++;
  }
  if (missing > 0) broken.push(`${missing} acknowledged creates are not in the database under the id and code they were answered with`);
  const twice = [...byChat.values()].filter((list) => list.length > 1).length;
  if (twice > 0) broken.push(`${twice} target chat IDs of the run were written more than once`);

  const answeredTotal = run.answered.create;
  const refused = run.failed.create;
  const unanswered = sent.length - answeredTotal;
  const extra = ours.length - acked.length;
  if (extra !== unanswered)
    broken.push(
      `orders of the run in the database minus acknowledged creates is ${extra}, but ${unanswered} creates got no answer (sent ${sent.length}, answered ${answeredTotal})`,
    );
  // An order whose create was refused must not be there: every extra one is a create that got no answer.
  const sentSet = new Set(sent);
  const strangers = ours.filter((o) => !sentSet.has(o.obj_wechat)).length;
  if (strangers > 0) broken.push(`${strangers} orders of the run were never sent`);

  // Balances against ledgers, codes, the counters against the orders (the server's own check).
  const { db } = appOn(target);
  let books;
  try {
    books = await readBooks(db);
  } finally {
    await db.destroy();
  }
  broken.push(...books.broken);

  // The workplace's figures against a recount.
  const res = await fetch(`${app.url}/api/admin/workplace`, { headers: { authorization: adminBearer } });
  const w = (
    (await res.json()) as {
      data: { balance: number; total: { count: number; amount: number }; results: { result: number; count: number; amount: number }[] };
    }
  ).data;
  const perResult = await rows<{ result: unknown; n: unknown; amount: unknown }>(
    target,
    'select result, count(*) as n, coalesce(sum(amount), 0) as amount from orders group by result',
  );
  if (w.total.count !== books.orders.n || w.total.amount !== books.orders.amount)
    broken.push(
      `the workplace's total ${w.total.count} orders / ${w.total.amount} fen, a recount ${books.orders.n} / ${books.orders.amount}`,
    );
  for (const r of perResult) {
    const shown = w.results.find((x) => x.result === num(r.result));
    if (shown?.count !== num(r.n) || shown.amount !== num(r.amount))
      broken.push(`the workplace's result ${num(r.result)}: ${shown?.count} / ${shown?.amount}, a recount ${num(r.n)} / ${num(r.amount)}`);
  }
  if (w.balance !== books.ledger.amount) broken.push(`the workplace's balance ${w.balance}, the ledger's sum ${books.ledger.amount}`);

  return {
    broken,
    inDatabase: ours.length,
    acked: acked.length,
    unanswered,
    refused,
    ordersTotal: books.orders.n,
    usersChecked: books.usersChecked,
  };
}
