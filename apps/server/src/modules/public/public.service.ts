import {
  localizedLabel,
  LINKSTORE_DICT,
  PUBLIC_LOOKUP_LIMIT,
  PUBLIC_LOOKUP_MIN_LENGTH,
  PUBLIC_PRICE_DICT,
  VERIFY_CODE_PATTERN,
  type PublicCertificate,
  type PublicFigures,
  type PublicLinkGroup,
  type PublicOrder,
  type PublicPrice,
} from '@clearplay/contract';
import type { Db } from '../../db/index.ts';
import { FieldAppError, AppError } from '../../lib/errors.ts';
import { t, type Locale } from '../../lib/messages.ts';
import { toIso } from '../../lib/time.ts';
import { enabledEntriesOf, isHttpUrl } from '../dicts/dicts.service.ts';
import * as repo from './public.repository.ts';

/** The result "cheating" (order_result value 1). */
export const CHEATING_RESULT = 1;

/**
 * A chat ID as the public may see it (decision 0049): a fixed `***` in place of the middle, so
 * the length is not told either. At most 7 leading and 2 trailing characters stay, and at
 * least half the ID is always hidden: 20 characters `wxid_a1***9f`, 12 `wxid***9f`,
 * 8 `wxi***f`, 6 `wx***f`, 3 `a***`, 1 `***`. Counts code points, so an emoji or a Chinese
 * character is one character.
 */
export function maskChatId(id: string): string {
  const chars = Array.from(id.trim());
  const n = chars.length;
  const tail = n >= 10 ? 2 : n >= 6 ? 1 : 0;
  const head = Math.max(0, Math.min(7, Math.floor(n / 2) - tail));
  return `${chars.slice(0, head).join('')}***${tail === 0 ? '' : chars.slice(n - tail).join('')}`;
}

const toPublicOrder = (row: repo.PublicOrderRow, locale: Locale): PublicOrder => ({
  code: row.code,
  // The game's label in the reader's language (decision 0097); a value the dictionary lacks as stored.
  gameName: row.gameLabel === null ? row.gameName : localizedLabel(row.gameLabel, row.gameLabelEn, locale),
  result: row.result,
  resultLabel: row.resultLabel === null ? String(row.result) : localizedLabel(row.resultLabel, row.resultLabelEn, locale),
  resultClass: row.resultClass ?? 'default',
  checkedTime: toIso(Number(row.createdAt)),
  maskedWechat: maskChatId(row.objWechat),
});

/** Public orders of exactly this chat ID (decision 0049); a private order is never told apart from none. */
export async function lookup(db: Db, chatId: string, locale: Locale): Promise<PublicOrder[]> {
  const id = chatId.trim();
  if (Array.from(id).length < PUBLIC_LOOKUP_MIN_LENGTH) {
    throw new FieldAppError(400, 'chatId', 'public.chatIdShort', { min: PUBLIC_LOOKUP_MIN_LENGTH });
  }
  return (await repo.publicOrdersByChatId(db, id, PUBLIC_LOOKUP_LIMIT)).map((row) => toPublicOrder(row, locale));
}

const CODE = new RegExp(VERIFY_CODE_PATTERN);

/** A code as typed or scanned: trimmed, upper case; 400 when it cannot be a code at all. */
export function normalCode(raw: string): string {
  const code = raw.trim().toUpperCase();
  if (!CODE.test(code)) throw new FieldAppError(400, 'code', 'public.badCode', { code: raw.slice(0, 32) });
  return code;
}

/** The certificate of a public order; an unknown code and a private order get the same 404. */
export async function certificate(db: Db, rawCode: string, locale: Locale): Promise<PublicCertificate> {
  const code = normalCode(rawCode);
  const row = await repo.publicOrderByCode(db, code);
  if (row === undefined) throw new AppError(404, 'public.noCertificate', { code });
  return { ...toPublicOrder(row, locale), serviceName: t(locale, 'public.serviceName') };
}

/**
 * The link store (decision 0050): the enabled entries of `linkstore` as a tree. Each root is a
 * group (its own URL is the group's site) with the links under it (deeper ones flattened into
 * their root). Values are checked on save; one that is not an http(s) URL (written before
 * the check, or by hand) is left out rather than published.
 */
export async function links(db: Db, locale: Locale): Promise<PublicLinkGroup[]> {
  const rows = (await enabledEntriesOf(db, LINKSTORE_DICT)).filter((r) => isHttpUrl(r.value));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const rootOf = (id: number): number => {
    let current = byId.get(id);
    for (let depth = 0; current !== undefined && current.parentId !== null && byId.has(current.parentId) && depth < 32; depth++) {
      current = byId.get(current.parentId);
    }
    return current?.id ?? id;
  };
  const groups = new Map<number, PublicLinkGroup>();
  const toLink = (r: (typeof rows)[number]) => ({
    id: r.id,
    title: localizedLabel(r.label, r.labelEn, locale),
    url: r.value,
    description: localizedLabel(r.remark, r.remarkEn, locale),
    icon: r.cssClass,
  });
  for (const r of rows) if (r.parentId === null || !byId.has(r.parentId)) groups.set(r.id, { ...toLink(r), links: [] });
  for (const r of rows) {
    if (groups.has(r.id)) continue;
    groups.get(rootOf(r.id))?.links.push(toLink(r));
  }
  return [...groups.values()];
}

/** Published prices (decision 0050): `public_price` entries in display order, label and note in the reader's language (0097), value in fen. */
export async function prices(db: Db, locale: Locale): Promise<PublicPrice[]> {
  const rows = await enabledEntriesOf(db, PUBLIC_PRICE_DICT);
  return rows
    .filter((r) => /^\d{1,9}$/.test(r.value))
    .map((r) => ({
      label: localizedLabel(r.label, r.labelEn, locale),
      price: Number(r.value),
      remark: localizedLabel(r.remark, r.remarkEn, locale),
    }));
}

/** Checks recorded and cheaters caught, from order_daily's counters. */
export const figures = (db: Db): Promise<PublicFigures> => repo.orderFigures(db, CHEATING_RESULT);
