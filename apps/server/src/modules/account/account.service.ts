import type {
  AccountProfile,
  AccountUpdateBody,
  ActiveSession,
  LedgerPage,
  LoginHistoryPage,
  PasswordChangeBody,
  SubscriptionRecord,
} from '@clearplay/contract';
import { writeTransaction } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import { FieldAppError, AppError } from '../../lib/errors.ts';
import type { Locale } from '../../lib/messages.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { nowMs, toIso, toIsoOrNull } from '../../lib/time.ts';
import { liveSessionsOf, loginHistoryOf, revokeOtherSessions } from '../auth/auth.service.ts';
import { ledgerPage } from '../ledger/ledger.service.ts';
import { listSubscriptions, subscriptionState } from '../users/users.service.ts';
import * as repo from './account.repository.ts';

/**
 * The signed-in user's own account (issue 14, decision 0053): the user centre (profile, own
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

export async function updateProfile(db: Db, userId: number, body: AccountUpdateBody): Promise<AccountProfile> {
  await own(db, userId);
  await repo.updateOwn(db, userId, {
    nickname: body.nickname.trim(),
    wechat: body.wechat.trim(),
    phone: body.phone.trim(),
    ...(body.avatar === undefined ? {} : { avatar: body.avatar.trim() }),
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
