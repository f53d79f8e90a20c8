/**
 * The demo's recharges: each shop pays an opening amount when its orders start, and pays
 * again a round sum a day or two after its balance runs low, as shops do. A few shops stop
 * paying for their last weeks and end in debt. Pure: charges in, recharges out.
 */
import { DAY_MS, HOUR_MS } from '../lib/time.ts';
import type { DemoShop } from './people.ts';
import type { Rng } from './prng.ts';

export interface DemoCharge {
  at: number;
  /** Positive fen: what the order costs. */
  amount: number;
}

export interface DemoRecharge {
  at: number;
  /** Positive fen. */
  amount: number;
  remark: string;
}

const REMARKS = ['微信转账', '支付宝转账', '银行转账', '对公转账', ''];
const LOW = 200_00;

/** `charges` in time order; `opening` is the shop's balance before the demo. */
export function planRecharges(rng: Rng, shop: DemoShop, charges: readonly DemoCharge[], opening: number, now: number): DemoRecharge[] {
  if (charges.length === 0) return [];
  const first = charges[0];
  if (first === undefined) return [];
  const sums = shop.owes ? [1000_00] : [1000_00, 2000_00, 3000_00, 5000_00];
  const stopAt = shop.owes ? now - rng.int(28, 35) * DAY_MS : now;
  const out: DemoRecharge[] = [{ at: first.at - rng.int(1, 20) * HOUR_MS, amount: rng.pick(sums), remark: '首次充值' }];
  let balance = opening + out[0]!.amount;
  let due: number | null = null;
  for (const charge of charges) {
    if (due !== null && due <= charge.at) {
      const amount = rng.pick(sums);
      out.push({ at: due, amount, remark: rng.pick(REMARKS) });
      balance += amount;
      due = null;
    }
    balance -= charge.amount;
    if (balance < LOW && due === null) {
      const at = charge.at + rng.int(2, 48) * HOUR_MS;
      if (at < stopAt && at < now - HOUR_MS) due = at;
    }
  }
  if (due !== null) out.push({ at: due, amount: rng.pick(sums), remark: rng.pick(REMARKS) });
  return out;
}
