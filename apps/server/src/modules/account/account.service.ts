import type {
  AccountProfile,
  AccountUpdateBody,
  ActiveSession,
  LedgerPage,
  LoginHistoryPage,
  PasswordChangeBody,
  SubscriptionRecord,
} from '@clearplay/contract';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Db } from '../../db/index.ts';
import { FieldAppError, AppError } from '../../lib/errors.ts';
import type { Locale } from '../../lib/messages.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { nowMs, toIso, toIsoOrNull } from '../../lib/time.ts';
import { liveSessionsOf, loginHistoryOf, revokeOtherSessions } from '../auth/auth.service.ts';
import { ledgerPage } from '../ledger/ledger.service.ts';
import { listSubscriptions, subscriptionState } from '../users/users.service.ts';
import type { BlobStore } from '../uploads/uploads.service.ts';
import { isAvatarKeyOf } from '../uploads/keys.ts';
import * as repo from './account.repository.ts';

/**
 * The signed-in user's own account (decision 0053): the user centre (profile, own
 * sign-ins and sessions, a shop's subscription and ledger, read-only) and the settings
 * (nickname, chat ID, phone, avatar, language; password with the current one). Everything acts
 * on the session's user; nothing here takes a user id from the request.
 */

async function own(db: Db, userId: number) {
  const row = await repo.findOwn(db, userId);
  if (row === undefined) throw new AppError(404, 'user.notFound', { id: userId });
  return row;
}

const isLocale = (value: string | null): value is 'zh-CN' | 'en-US' => value === 'zh-CN' || value === 'en-US';

export async function profile(db: Db, userId: number): Promise<AccountProfile> {
  const row = await own(db, userId);
  const end = row.serviceEndAt === null ? null : Number(row.serviceEndAt);
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname,
    roleName: row.roleName,
    roleDescription: row.roleDescription,
    roleDescriptionEn: row.roleDescriptionEn ?? '',
    wechat: row.wechat,
    phone: row.phone,
    avatar: row.avatar,
    locale: isLocale(row.locale) ? row.locale : null,
    loginTime: toIsoOrNull(row.loginAt === null ? null : Number(row.loginAt)),
    createdTime: toIso(Number(row.createdAt)),
    shop:
      row.roleIsAdmin === 1
        ? null
        : { balance: Number(row.balance), serviceEndDate: toIsoOrNull(end), subscriptionState: subscriptionState(end, nowMs()) },
  };
}

/** Where avatars are checked: the public base of stored files and the store that holds them. */
export interface AvatarStore {
  /** `<filesBase>/<key>` is the URL of a stored file (`/upload/files` or the bucket's domain). */
  filesBase: string;
  blobs: Pick<BlobStore, 'stat'>;
}

/**
 * An avatar is '' (none) or the URL of an `avatar` upload of this very user that is stored
 * (decision 0062): `<filesBase>/avatar/<user id>/<32 hex>`. Anything else is refused naming the
 * field, so no one points their avatar at another site, another user's file or evidence.
 */
async function checkAvatar(store: AvatarStore, userId: number, avatar: string): Promise<string> {
  const url = avatar.trim();
  if (url === '') return '';
  const prefix = `${store.filesBase}/`;
  const key = url.startsWith(prefix) ? url.slice(prefix.length) : '';
  if (!isAvatarKeyOf(key, userId)) throw new FieldAppError(400, 'avatar', 'account.avatarInvalid');
  if ((await store.blobs.stat(key)) === null) throw new FieldAppError(400, 'avatar', 'account.avatarMissing');
  return url;
}

/** Sets (or, with '', removes) the user's avatar; the file it replaces is left to the upload retention job. */
export async function setAvatar(db: Db, store: AvatarStore, userId: number, avatar: string): Promise<AccountProfile> {
  await own(db, userId);
  await repo.updateOwn(db, userId, { avatar: await checkAvatar(store, userId, avatar), updatedAt: nowMs() });
  return profile(db, userId);
}

export async function updateProfile(db: Db, userId: number, body: AccountUpdateBody, store: AvatarStore): Promise<AccountProfile> {
  await own(db, userId);
  const avatar = body.avatar === undefined ? undefined : await checkAvatar(store, userId, body.avatar);
  await repo.updateOwn(db, userId, {
    nickname: body.nickname.trim(),
    ...(body.wechat === undefined ? {} : { wechat: body.wechat.trim() }),
    ...(body.phone === undefined ? {} : { phone: body.phone.trim() }),
    ...(avatar === undefined ? {} : { avatar }),
    ...(body.locale === undefined ? {} : { locale: body.locale }),
    updatedAt: nowMs(),
  });
  return profile(db, userId);
}

/**
 * A new password, the current one required. Every other session of the user ends (their
 * next call answers 50012); the caller's own session stays. Answers how many ended.
 */
export async function changePassword(db: Db, userId: number, sessionId: number, body: PasswordChangeBody): Promise<number> {
  const row = await own(db, userId);
  if (!(await verifyPassword(row.passwordHash, body.oldPassword))) throw new FieldAppError(400, 'oldPassword', 'account.wrongPassword');
  if (body.oldPassword === body.newPassword) throw new FieldAppError(400, 'newPassword', 'account.samePassword');
  const passwordHash = await hashPassword(body.newPassword);
  return writeTransaction(db, async (trx) => {
    const now = nowMs();
    await repo.updateOwn(trx, userId, { passwordHash, passwordChangedAt: now, updatedAt: now });
    return revokeOtherSessions(trx, userId, sessionId, 'password_reset', now);
  });
}

export async function loginHistory(db: Db, userId: number, page = 1, pageSize = 10): Promise<LoginHistoryPage> {
  const { rows, total } = await loginHistoryOf(db, userId, page, pageSize);
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      ip: r.ip,
      userAgent: r.userAgent,
      success: r.success === 1,
      reason: r.reason,
      createdTime: toIso(Number(r.createdAt)),
    })),
    total,
  };
}

export async function sessions(db: Db, userId: number, sessionId: number): Promise<ActiveSession[]> {
  return (await liveSessionsOf(db, userId)).map((s) => ({
    id: Number(s.id),
    ip: s.ip,
    userAgent: s.userAgent,
    createdTime: toIso(Number(s.createdAt)),
    lastSeenTime: toIso(Number(s.lastSeenAt)),
    expiresTime: toIso(Number(s.expiresAt)),
    current: Number(s.id) === sessionId,
  }));
}

export const endOtherSessions = (db: Db, userId: number, sessionId: number): Promise<number> =>
  revokeOtherSessions(db, userId, sessionId, 'logged_out_elsewhere');

/** A shop's own ledger, read-only; staff have none (404 names it). */
export async function ownLedger(db: Db, userId: number, page: number, pageSize: number, locale: Locale): Promise<LedgerPage> {
  const row = await own(db, userId);
  if (row.roleIsAdmin === 1) throw new AppError(404, 'account.noLedger');
  return ledgerPage(db, { userId, page, pageSize }, locale);
}

export async function ownSubscriptions(db: Db, userId: number): Promise<SubscriptionRecord[]> {
  return listSubscriptions(db, userId);
}
