// The books after a load (issue 25 "Load"): read straight from the database beside the server,
// once the run has ended and the server has finished what it was given.
// - every acknowledged create is there, under the id and code it was answered with;
// - no verification code twice;
// - every user's balance is the sum of their ledger, and their last entry's balance after;
// - the workplace's figures (total, per result, balance) equal a recount of the rows;
// - the counters the list and the workplace read (order_daily, order_hourly, order_game_daily,
//   order_user_daily) equal a recount of the orders;
// - the run's orders in the database minus the acknowledged creates equals the creates that got
//   no answer (sent, never answered: a timeout, or still in flight when the run ended), and none
//   of them is a create that was refused.
import { CompiledQuery } from 'kysely';
import type { Proc } from './lib.ts';
import type { MixedResult } from './mixed-load.ts';
import type { Target } from './targets.ts';

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

  const dupCodes = await rows<{ code: string; n: unknown }>(
    target,
    'select code, count(*) as n from orders group by code having count(*) > 1',
  );
  if (dupCodes.length > 0) broken.push(`${dupCodes.length} verification codes are used by more than one order (e.g. ${dupCodes[0]!.code})`);

  const balances = await rows<{ id: unknown; balance: unknown; sum: unknown; last: unknown; entries: unknown }>(
    target,
    `select u.id, u.balance,
       (select coalesce(sum(l.amount), 0) from ledger_entries l where l.user_id = u.id) as sum,
       (select l.balance_after from ledger_entries l where l.user_id = u.id order by l.id desc limit 1) as last,
       (select count(*) from ledger_entries l where l.user_id = u.id) as entries
     from users u`,
  );
  const offBalance = balances.filter((b) => num(b.balance) !== num(b.sum) || (num(b.entries) > 0 && num(b.last) !== num(b.balance)));
  if (offBalance.length > 0)
    broken.push(
      `${offBalance.length} users' balance differs from the sum of their ledger (e.g. user ${num(offBalance[0]!.id)}: ${num(offBalance[0]!.balance)} vs ${num(offBalance[0]!.sum)})`,
    );

  // The workplace's figures against a recount.
  const res = await fetch(`${app.url}/api/admin/workplace`, { headers: { authorization: adminBearer } });
  const w = (
    (await res.json()) as {
      data: { balance: number; total: { count: number; amount: number }; results: { result: number; count: number; amount: number }[] };
    }
  ).data;
  const [total] = await rows<{ n: unknown; amount: unknown }>(
    target,
    'select count(*) as n, coalesce(sum(amount), 0) as amount from orders',
  );
  const perResult = await rows<{ result: unknown; n: unknown; amount: unknown }>(
    target,
    'select result, count(*) as n, coalesce(sum(amount), 0) as amount from orders group by result',
  );
  const [ledger] = await rows<{ s: unknown }>(target, 'select coalesce(sum(amount), 0) as s from ledger_entries');
  if (w.total.count !== num(total?.n) || w.total.amount !== num(total?.amount))
    broken.push(
      `the workplace's total ${w.total.count} orders / ${w.total.amount} fen, a recount ${num(total?.n)} / ${num(total?.amount)}`,
    );
  for (const r of perResult) {
    const shown = w.results.find((x) => x.result === num(r.result));
    if (shown?.count !== num(r.n) || shown.amount !== num(r.amount))
      broken.push(`the workplace's result ${num(r.result)}: ${shown?.count} / ${shown?.amount}, a recount ${num(r.n)} / ${num(r.amount)}`);
  }
  if (w.balance !== num(ledger?.s)) broken.push(`the workplace's balance ${w.balance}, the ledger's sum ${num(ledger?.s)}`);

  // The counters against the orders.
  for (const [table, key] of [
    ['order_daily', 'result, if_public'],
    ['order_hourly', 'result, if_public'],
    ['order_game_daily', 'game_name, result'],
    ['order_user_daily', 'user_id, result'],
  ] as const) {
    const counted = await rows<{ n: unknown; amount: unknown; k: string }>(
      target,
      `select ${key.replace(', ', " || ':' || ")} as k, sum(n) as n, sum(amount) as amount from ${table} group by ${key}`,
    );
    const recount = await rows<{ n: unknown; amount: unknown; k: string }>(
      target,
      `select ${key.replace(', ', " || ':' || ")} as k, count(*) as n, sum(amount) as amount from orders group by ${key}`,
    );
    const want = new Map(recount.map((r) => [String(r.k), `${num(r.n)}/${num(r.amount)}`]));
    const got = new Map(counted.filter((r) => num(r.n) !== 0).map((r) => [String(r.k), `${num(r.n)}/${num(r.amount)}`]));
    const off = [...new Set([...want.keys(), ...got.keys()])].filter((k) => want.get(k) !== got.get(k));
    if (off.length > 0)
      broken.push(`${table}: ${off.length} groups differ from a recount (e.g. ${off[0]}: ${got.get(off[0]!)} vs ${want.get(off[0]!)})`);
  }

  return {
    broken,
    inDatabase: ours.length,
    acked: acked.length,
    unanswered,
    refused,
    ordersTotal: num(total?.n),
    usersChecked: balances.length,
  };
}
