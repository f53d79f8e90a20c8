import type { OrderProfile } from '@clearplay/contract';
import type { Db } from '../../../db/index.ts';
import type { Operator } from '../../../http/route-context.ts';
import type { Locale } from '../../../lib/messages.ts';
import * as ledger from '../../ledger/ledger.service.ts';
import { verifyUrlOf } from '../files/orders.download.ts';
import { readsLedgers, seesAll } from '../orders.rules.ts';
import { toOrderItem, visibleOrder } from '../orders.service.ts';

/**
 * An order's profile page (decision 0065): the order as the detail call shows it
 * (404 when the reader may not see it), its verification URL under the public pages' base
 * (decision 0051, the ZIP summary's too) and its ledger entries.
 *
 * Who reads which entry: staff who read ledgers (user:ledger) every entry with the balance it
 * left; staff who see every order but no balances (an inspector) every entry without the
 * balance; a shop its own order's entries on its own ledger, with its balance (not the entries
 * of a client shop the order was moved away from). Another shop's public order (the reduced
 * view, no amount): no ledger at all.
 */
export async function orderProfile(db: Db, id: number, op: Operator, locale: Locale, publicBase: string): Promise<OrderProfile> {
  const order = toOrderItem(await visibleOrder(db, id, op), op);
  const ledgerReader = readsLedgers(op);
  const staff = seesAll(op) || ledgerReader;
  const entries =
    order.view === 'full'
      ? await ledger.entriesOfOrder(db, order.id, locale, (userId) => {
          const own = userId === op.id;
          return { entry: staff || own, balance: ledgerReader || own };
        })
      : null;
  return { order, verifyUrl: verifyUrlOf(publicBase, order.code), ledger: entries };
}
