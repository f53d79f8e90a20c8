/**
 * The rules of an order (docs/product.md "Orders", "People and what each may do" and "The back office"): who sees and
 * does what, the price of a result, and the checks every created, edited or imported order
 * goes through. Pure functions; orders.service.ts loads what they look things up in.
 */
import {
  charCount,
  formatMoney,
  normalizeMac,
  ORDER_IMAGES_MAX,
  ORDER_IMAGE_KINDS,
  ORDER_TEXT_MAX,
  PRICE_FIELD_OF_RESULT,
  type OrderCreateBody,
  type OrderResult,
} from '@clearplay/contract';
import type { Insertable } from 'kysely';
import type { Database, OrderRow } from '../../db/schema.ts';
import type { Operator } from '../../http/route-context.ts';
import type { MessageKey, MessageParams } from '../../lib/messages.ts';
import { DAY_MS } from '../../lib/time.ts';
import type { PartyRow } from './orders.repository.ts';
import { stripSignature } from '../uploads/uploads.service.ts';

// ── who sees and does what (docs/product.md "People and what each may do") ──

const has = (op: Operator, permission: string) => op.permissions.includes(permission);
/** Staff see every order in full; a shop sees its own in full and other shops' public ones reduced. */
export const seesAll = (op: Operator) => has(op, 'order:view:all');
export const editsAny = (op: Operator) => has(op, 'order:update:any');
export const overridesAmount = (op: Operator) => has(op, 'order:amount:override');
/** Reads any shop's ledger and balance (the shop-balance drawer; an order's ledger entries in full). */
export const readsLedgers = (op: Operator) => has(op, 'user:ledger');

export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

export const priceFor = (
  party: Pick<PartyRow, 'defaultPrice' | 'defaultPriceCheat' | 'defaultPriceNotPass' | 'defaultPriceSuspect'>,
  result: number,
): number => Number(party[PRICE_FIELD_OF_RESULT[result as OrderResult]]);

export const displayName = (nickname: string | null, username: string | null): string =>
  nickname !== null && nickname.trim() !== '' ? nickname : (username ?? '');

// ── the checks of an order (docs/product.md "Orders" and "The back office") ──

/**
 * What a person enters, from the API or one import row: the create body with the install
 * time in epoch ms, and the numbers an import row may get wrong left as plain numbers (the
 * checks report them). An absent amount is the client's price for the result (import).
 */
export type OrderInput = Omit<OrderCreateBody, 'installationTime' | 'result' | 'amount' | 'ifPublic' | 'ifChangedMac'> & {
  installationAt: number;
  result: number;
  amount?: number;
  ifPublic?: number;
  ifChangedMac?: number;
};

export interface Issue {
  field: string;
  key: MessageKey;
  params?: MessageParams;
}

/** What the checks look things up in, loaded once per request or per import. */
export interface CheckContext {
  op: Operator;
  now: number;
  games: ReadonlySet<string>;
  results: ReadonlySet<string>;
  parties: ReadonlyMap<number, PartyRow>;
  /** The order being edited. */
  existing?: OrderRow;
}

export type OrderValues = Omit<Insertable<Database['orders']>, 'code' | 'createdBy' | 'createdAt' | 'updatedAt'>;

/** Install times before this are typing mistakes. */
const EARLIEST_INSTALL = Date.UTC(2000, 0, 1);
const IMAGE_URL = /^(https?:\/\/[^\s,]+|\/[^\s,]+)$/;

function cleanImages(list: string | undefined, field: string, issues: Issue[]): string {
  const urls = (list ?? '')
    .split(',')
    // A link handed out signed is stored bare (decision 0082): it is signed again at each read.
    .map((u) => stripSignature(u.trim()))
    .filter((u) => u !== '');
  if (urls.length > ORDER_IMAGES_MAX) issues.push({ field, key: 'order.tooManyImages', params: { max: ORDER_IMAGES_MAX } });
  const bad = urls.find((u) => u.length > 500 || !IMAGE_URL.test(u));
  if (bad !== undefined) issues.push({ field, key: 'order.imageUrl', params: { value: bad.slice(0, 80) } });
  return urls.join(',');
}

/** A text's length in characters (code points), as the schema counts it (the contract's). */
export { charCount };

const required = (value: string, field: keyof typeof ORDER_TEXT_MAX, issues: Issue[]): string => {
  const trimmed = value.trim();
  if (trimmed === '') issues.push({ field, key: 'order.required' });
  else if (charCount(trimmed) > ORDER_TEXT_MAX[field]) issues.push({ field, key: 'order.tooLong', params: { max: ORDER_TEXT_MAX[field] } });
  return trimmed;
};

/**
 * Checks one order against its required fields and the product's rules; every problem is reported (an
 * import lists them all). Values are normalised: trimmed text, MAC in its normal form, the
 * amount from the client's price unless the operator may override it.
 */
export function checkOrder(input: OrderInput, ctx: CheckContext): { issues: Issue[]; values: OrderValues | null } {
  const issues: Issue[] = [];
  const { op, existing } = ctx;
  const objWechat = required(input.objWechat, 'objWechat', issues);
  const objWechatName = required(input.objWechatName, 'objWechatName', issues);
  const objClientName = required(input.objClientName, 'objClientName', issues);
  const gameName = required(input.gameName, 'gameName', issues);
  if (gameName !== '' && !ctx.games.has(gameName) && gameName !== existing?.gameName) {
    issues.push({ field: 'gameName', key: 'order.unknownGame', params: { value: gameName } });
  }
  const mac = normalizeMac(input.mac);
  if (mac === null) issues.push({ field: 'mac', key: 'order.mac', params: { value: input.mac.slice(0, 40) } });
  if (!Number.isFinite(input.installationAt) || input.installationAt < EARLIEST_INSTALL || input.installationAt > ctx.now + DAY_MS) {
    issues.push({ field: 'installationTime', key: 'order.installationTime' });
  }
  const resultKnown = ctx.results.has(String(input.result)) && PRICE_FIELD_OF_RESULT[input.result as OrderResult] !== undefined;
  if (!resultKnown) issues.push({ field: 'result', key: 'order.unknownResult', params: { value: String(input.result) } });

  const client = ctx.parties.get(input.userId);
  const clientChanged = existing === undefined || existing.userId !== input.userId;
  if (client === undefined) issues.push({ field: 'userId', key: 'order.clientMissing', params: { id: input.userId } });
  else if (client.isAdmin === 1) issues.push({ field: 'userId', key: 'order.clientAdmin', params: { username: client.username } });
  else if (clientChanged && client.status !== 1)
    issues.push({ field: 'userId', key: 'order.clientDisabled', params: { username: client.username } });

  const inspector = ctx.parties.get(input.inspectorId);
  const inspectorChanged = existing === undefined || existing.inspectorId !== input.inspectorId;
  if (inspectorChanged && !editsAny(op) && input.inspectorId !== op.id) issues.push({ field: 'inspectorId', key: 'order.inspectorSelf' });
  else if (inspector === undefined) issues.push({ field: 'inspectorId', key: 'order.inspectorMissing', params: { id: input.inspectorId } });
  else if (inspectorChanged && inspector.status !== 1)
    issues.push({ field: 'inspectorId', key: 'order.inspectorDisabled', params: { username: inspector.username } });

  let amount = input.amount;
  if (client !== undefined && client.isAdmin !== 1 && resultKnown) {
    const price = priceFor(client, input.result);
    const unchanged = existing !== undefined && !clientChanged && existing.result === input.result;
    if (amount === undefined) amount = unchanged ? Number(existing.amount) : price;
    else if (!overridesAmount(op) && amount !== price && !(unchanged && amount === Number(existing.amount))) {
      issues.push({ field: 'amount', key: 'order.amountNotPrice', params: { price: formatMoney(price) } });
    }
  }
  if (amount !== undefined && (!Number.isInteger(amount) || amount < 0 || amount > 100_000_000)) {
    issues.push({ field: 'amount', key: 'order.amount' });
  }
  const description = (input.description ?? '').trim();
  if (charCount(description) > ORDER_TEXT_MAX.description)
    issues.push({ field: 'description', key: 'order.tooLong', params: { max: ORDER_TEXT_MAX.description } });
  const images = Object.fromEntries(ORDER_IMAGE_KINDS.map((kind) => [kind, cleanImages(input[kind], kind, issues)])) as Record<
    (typeof ORDER_IMAGE_KINDS)[number],
    string
  >;

  if (issues.length > 0 || mac === null || amount === undefined) return { issues, values: null };
  return {
    issues,
    values: {
      objWechat,
      objWechatName,
      gameName,
      mac,
      installationAt: input.installationAt,
      result: input.result,
      userId: input.userId,
      objClientName,
      inspectorId: input.inspectorId,
      amount,
      ifPublic: input.ifPublic ?? existing?.ifPublic ?? client?.ifPublic ?? 0,
      ifChangedMac: input.ifChangedMac ?? 0,
      description,
      ...images,
    },
  };
}
