import {
  RoleName,
  SUBSCRIPTION_DAYS,
  type ResetPasswordBody,
  type SetSubscriptionBody,
  type SetUserStatusBody,
  type SubscriptionRecord,
  type SubscriptionState,
  type UserCreateBody,
  type UserItem,
  type UserListQuery,
  type UserOption,
  type UserSearchQuery,
  type UserUpdateBody,
} from '@clearplay/contract';
import type { Operator } from '../../http/route-context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { textFilter } from '../../db/text-search.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Db } from '../../db/index.ts';
import type { RevokeReason, SubscriptionRow } from '../../db/schema.ts';
import { AppError, FieldAppError } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { DAY_MS, nowMs, toIso, toIsoOrNull } from '../../lib/time.ts';
import { parsePermissions, revokeUserSessions } from '../auth/auth.service.ts';
import { clearFactor } from '../auth/second-factor.service.ts';
import { assertDictValue, PUBLIC_DICT, STATUS_DICT } from '../dicts/dicts.service.ts';
import { countEntriesOf } from '../ledger/ledger.service.ts';
import { passwordReset, subscriptionRenewed } from '../messages/messages.service.ts';
import { countOrdersOf } from '../orders/orders.service.ts';
import * as repo from './users.repository.ts';
import { logText, type LogText } from '../../lib/log-text.ts';

/** A subscription ending within this long is "expiring" (docs/product.md "The workplace": shops to renew within 7 days). */
export const EXPIRING_WITHIN_MS = 7 * DAY_MS;

export function subscriptionState(serviceEndAt: number | null, now: number): SubscriptionState {
  if (serviceEndAt === null) return 'none';
  if (serviceEndAt <= now) return 'expired';
  if (serviceEndAt <= now + EXPIRING_WITHIN_MS) return 'expiring';
  return 'active';
}

const bool01 = (n: number): 0 | 1 => (n === 1 ? 1 : 0);

function toUserItem(row: repo.UserWithRoleRow, latest: SubscriptionRow | undefined, now: number): UserItem {
  const serviceEndAt = row.serviceEndAt === null ? null : Number(row.serviceEndAt);
  const current = latest !== undefined && latest.action !== 'cancel' ? latest : undefined;
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname,
    roleId: row.roleId,
    roleName: row.roleName,
    roleIsAdmin: row.roleIsAdmin === 1,
    wechat: row.wechat,
    phone: row.phone,
    avatar: row.avatar,
    ifPublic: bool01(row.ifPublic),
    status: bool01(row.status),
    createdTime: toIso(Number(row.createdAt)),
    loginTime: toIsoOrNull(row.loginAt === null ? null : Number(row.loginAt)),
    defaultPrice: Number(row.defaultPrice),
    defaultPriceCheat: Number(row.defaultPriceCheat),
    defaultPriceSuspect: Number(row.defaultPriceSuspect),
    defaultPriceNotPass: Number(row.defaultPriceNotPass),
    serviceEndDate: toIsoOrNull(serviceEndAt),
    subscriptionState: subscriptionState(serviceEndAt, now),
    subscriptionType: current?.type ?? null,
    durationDays: current?.durationDays ?? null,
    secondFactor: row.totpEnabledAt !== null,
  };
}

/** The list's query as repository filters (exported for the benchmark, which compiles the same SQL). */
export function toUserFilter(query: UserListQuery, now: number): repo.UserFilter {
  const f: repo.UserFilter = {
    username: textFilter(query.username),
    nickname: textFilter(query.nickname),
    wechat: textFilter(query.wechat),
    phone: textFilter(query.phone),
    roleId: query.roleId,
    status: query.status,
    createdStart: query.createdStart === undefined ? undefined : Date.parse(query.createdStart),
    createdEnd: query.createdEnd === undefined ? undefined : Date.parse(query.createdEnd),
  };
  switch (query.subscriptionState) {
    case 'none':
      f.endIsNull = true;
      break;
    case 'expired':
      f.endAtMost = now;
      break;
    case 'expiring':
      f.endAfter = now;
      f.endAtMost = now + EXPIRING_WITHIN_MS;
      break;
    case 'active':
      f.endAfter = now + EXPIRING_WITHIN_MS;
      break;
  }
  return f;
}

export async function listUsers(db: Db, query: UserListQuery): Promise<{ list: UserItem[]; total: number }> {
  const now = nowMs();
  const f = toUserFilter(query, now);
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 20;
  // The count first: it is answered from an index, and tells whether a text filter is
  // selective enough to drive the page query from its own index (see repo.listPage).
  const total = Number((await repo.countQuery(db, f).executeTakeFirstOrThrow()).n);
  const driveFromFilter = repo.hasTextFilter(f) && total <= repo.DRIVE_FROM_FILTER_MAX;
  const rows = await repo.listPage(db, f, (page - 1) * pageSize, pageSize, driveFromFilter).execute();
  const latest = await repo.latestSubscriptions(
    db,
    rows.map((r) => r.id),
  );
  return { list: rows.map((r) => toUserItem(r, latest.get(r.id), now)), total };
}

export async function searchUsers(db: Db, query: UserSearchQuery): Promise<UserOption[]> {
  const rows = await repo.search(db, {
    keyword: textFilter(query.keyword),
    roleName: textFilter(query.roleName),
    includeDisabled: query.includeDisabled === true,
    limit: query.limit ?? 20,
  });
  return rows.map((r) => ({ id: r.id, username: r.username, nickname: r.nickname, roleName: r.roleName, status: bool01(r.status) }));
}

export async function getUserItem(db: Db, id: number): Promise<UserItem> {
  const row = await repo.findUserById(db, id);
  if (row === undefined) throw new AppError(404, 'user.notFound', { id });
  return toUserItem(row, (await repo.latestSubscriptions(db, [id])).get(id), nowMs());
}

async function findTarget(db: Db, id: number): Promise<repo.UserWithRoleRow> {
  const row = await repo.findUserById(db, id);
  if (row === undefined) throw new AppError(404, 'user.notFound', { id });
  return row;
}

const holdsAll = (operator: Operator, permissions: readonly string[]) => permissions.every((p) => operator.permissions.includes(p));

/** Nobody manages a user whose role can do something they cannot (no escalation through others). */
function assertCanManage(operator: Operator, target: repo.UserWithRoleRow): void {
  if (target.id !== operator.id && !holdsAll(operator, parsePermissions(target.rolePermissions))) {
    throw new AppError(403, 'user.targetTooHigh', { username: target.username });
  }
}

/** The role exists and grants nothing the operator lacks. */
async function assignableRole(db: Db, operator: Operator, roleId: number) {
  const role = await repo.findRole(db, roleId);
  if (role === undefined) throw new FieldAppError(400, 'roleId', 'user.roleNotFound', { id: roleId });
  if (!holdsAll(operator, parsePermissions(role.permissions)))
    throw new FieldAppError(403, 'roleId', 'user.roleTooHigh', { role: role.name });
  return role;
}

/** Refuses to take away the last enabled super_admin (by disabling, demoting or deleting them). */
async function assertNotLastSuperAdmin(db: Db, target: repo.UserWithRoleRow): Promise<void> {
  if (target.roleName !== RoleName.SUPER_ADMIN || target.status !== 1) return;
  if ((await repo.countEnabledWithRole(db, RoleName.SUPER_ADMIN)) <= 1) {
    throw new AppError(400, 'user.lastSuperAdmin', { username: target.username });
  }
}

async function assertDictFields(db: Db, body: { status?: number; ifPublic?: number }): Promise<void> {
  if (body.status !== undefined) await assertDictValue(db, STATUS_DICT, body.status, 'status');
  if (body.ifPublic !== undefined) await assertDictValue(db, PUBLIC_DICT, body.ifPublic, 'ifPublic');
}

const usernameTaken = (username: string) => new FieldAppError(409, 'username', 'user.usernameTaken', { username });

export async function createUser(db: Db, body: UserCreateBody, operator: Operator): Promise<UserItem> {
  await assertDictFields(db, body);
  await assignableRole(db, operator, body.roleId);
  // A user uploads their own avatar (user centre); staff set none (decision 0062).
  if ((body.avatar ?? '') !== '') throw new FieldAppError(400, 'avatar', 'user.avatarOwnOnly');
  const passwordHash = await hashPassword(body.password);
  const now = nowMs();
  try {
    const id = await writeTransaction(db, async (trx) => {
      if (await repo.usernameExists(trx, body.username)) throw usernameTaken(body.username);
      return repo.insertUser(trx, {
        username: body.username,
        passwordHash,
        nickname: body.nickname.trim(),
        roleId: body.roleId,
        wechat: body.wechat.trim(),
        phone: body.phone.trim(),
        avatar: body.avatar ?? '',
        ifPublic: body.ifPublic ?? 0,
        status: body.status ?? 1,
        defaultPrice: body.defaultPrice,
        defaultPriceCheat: body.defaultPriceCheat,
        defaultPriceSuspect: body.defaultPriceSuspect,
        defaultPriceNotPass: body.defaultPriceNotPass,
        serviceEndAt: null,
        loginAt: null,
        passwordChangedAt: now,
        createdAt: now,
        updatedAt: now,
      });
    });
    return await getUserItem(db, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw usernameTaken(body.username);
    throw error;
  }
}

export interface UpdateResult {
  item: UserItem;
  /** Why the user's sessions were ended, if they were. */
  sessionsEnded: RevokeReason | null;
}

/**
 * Updates a user. Nobody changes their own role or disables themselves; a role change or a
 * disable ends the user's sessions (their permissions changed under them).
 */
export async function updateUser(db: Db, body: UserUpdateBody, operator: Operator): Promise<UpdateResult> {
  await assertDictFields(db, body);
  const sessionsEnded = await writeTransaction(db, async (trx) => {
    const target = await findTarget(trx, body.id);
    assertCanManage(operator, target);
    const self = target.id === operator.id;
    const roleChanged = body.roleId !== target.roleId;
    const status = body.status ?? target.status;
    // Staff keep or remove a user's avatar, never point it at another picture (decision 0062).
    if (body.avatar !== undefined && body.avatar !== '' && body.avatar !== target.avatar)
      throw new FieldAppError(400, 'avatar', 'user.avatarOwnOnly');
    if (self && roleChanged) throw new FieldAppError(403, 'roleId', 'user.selfRole');
    if (self && status !== 1) throw new FieldAppError(403, 'status', 'user.selfDisable');
    if (roleChanged) await assignableRole(trx, operator, body.roleId);
    if (roleChanged || status !== target.status) {
      const newRole = roleChanged ? await repo.findRole(trx, body.roleId) : undefined;
      if (status !== 1 || (newRole !== undefined && newRole.name !== RoleName.SUPER_ADMIN)) await assertNotLastSuperAdmin(trx, target);
    }
    const now = nowMs();
    await repo.updateUser(trx, target.id, {
      nickname: body.nickname.trim(),
      roleId: body.roleId,
      wechat: body.wechat.trim(),
      phone: body.phone.trim(),
      avatar: body.avatar ?? target.avatar,
      ifPublic: body.ifPublic ?? target.ifPublic,
      status,
      defaultPrice: body.defaultPrice,
      defaultPriceCheat: body.defaultPriceCheat,
      defaultPriceSuspect: body.defaultPriceSuspect,
      defaultPriceNotPass: body.defaultPriceNotPass,
      updatedAt: now,
    });
    const reason: RevokeReason | null = status !== 1 && target.status === 1 ? 'disabled' : roleChanged ? 'role_changed' : null;
    if (reason !== null) await revokeUserSessions(trx, target.id, reason, now);
    return reason;
  });
  return { item: await getUserItem(db, body.id), sessionsEnded };
}

/** Sets a new password and ends every session of the user (their next call answers 50012). */
export async function resetPassword(db: Db, body: ResetPasswordBody, operator: Operator): Promise<string> {
  const passwordHash = await hashPassword(body.newPassword);
  return writeTransaction(db, async (trx) => {
    const target = await findTarget(trx, body.id);
    assertCanManage(operator, target);
    const now = nowMs();
    await repo.updateUser(trx, target.id, { passwordHash, passwordChangedAt: now, updatedAt: now });
    await revokeUserSessions(trx, target.id, 'password_reset', now);
    await passwordReset(trx, target.id, operator.username, now);
    return target.username;
  });
}

/**
 * A super admin removes another user's authenticator app and recovery codes (a lost phone):
 * every session of the user ends, and their next sign-in asks them to set up a new app where
 * one is required (decision 0091). Answers the username.
 */
export async function resetSecondFactor(db: Db, id: number, operator: Operator & { roleName: string }): Promise<string> {
  if (operator.roleName !== RoleName.SUPER_ADMIN) throw new AppError(403, 'totp.resetSuperAdminOnly');
  if (id === operator.id) throw new AppError(400, 'totp.resetSelf');
  return writeTransaction(db, async (trx) => {
    const target = await findTarget(trx, id);
    assertCanManage(operator, target);
    if (target.totpEnabledAt === null) throw new AppError(400, 'totp.notSetUp', { username: target.username });
    const now = nowMs();
    await clearFactor(trx, target.id, now);
    await revokeUserSessions(trx, target.id, 'second_factor_reset', now);
    return target.username;
  });
}

/** Enables or disables; disabling ends the user's sessions. Answers the username. */
export async function setUserStatus(db: Db, body: SetUserStatusBody, operator: Operator): Promise<string> {
  await assertDictValue(db, STATUS_DICT, body.status, 'status');
  return writeTransaction(db, async (trx) => {
    const target = await findTarget(trx, body.id);
    assertCanManage(operator, target);
    if (body.status !== 1 && target.id === operator.id) throw new AppError(403, 'user.selfDisable');
    if (body.status !== 1) await assertNotLastSuperAdmin(trx, target);
    const now = nowMs();
    await repo.updateUser(trx, target.id, { status: body.status, updatedAt: now });
    if (body.status !== 1) await revokeUserSessions(trx, target.id, 'disabled', now);
    return target.username;
  });
}

/**
 * Deletes a user who owns no records; one with subscription records is refused (disable them
 * instead), so the history that money depends on is never orphaned. Sessions end first.
 */
export async function deleteUser(db: Db, id: number, operator: Operator): Promise<string> {
  return writeTransaction(db, async (trx) => {
    if (id === operator.id) throw new AppError(403, 'user.selfDelete');
    const target = await findTarget(trx, id);
    assertCanManage(operator, target);
    await assertNotLastSuperAdmin(trx, target);
    // Subscriptions, orders naming the user (client or inspector) and ledger entries are
    // history other records point at: such a user is disabled, never deleted.
    const counts = await Promise.all([repo.countSubscriptions(trx, id), countOrdersOf(trx, id), countEntriesOf(trx, id)]);
    const records = counts.reduce((a, b) => a + b, 0);
    if (records > 0) throw new AppError(409, 'user.hasData', { username: target.username, count: records });
    await revokeUserSessions(trx, id, 'deleted');
    await clearFactor(trx, id);
    await repo.deleteUser(trx, id);
    return target.username;
  });
}

export const toSubscriptionRecord = (row: SubscriptionRow): SubscriptionRecord => ({
  id: row.id,
  userId: row.userId,
  action: row.action,
  type: row.type,
  durationDays: row.durationDays,
  startDate: toIso(Number(row.startAt)),
  endDate: toIso(Number(row.endAt)),
  operator: row.operator,
  remark: row.remark,
  createdTime: toIso(Number(row.createdAt)),
});

/** The log line of a subscription set (decision 0097): subscribed or renewed, for how long, from and to. */
export const subscriptionLogText = (username: string, id: number, record: SubscriptionRecord): LogText =>
  logText(record.action === 'renew' ? 'log.text.user.renew' : 'log.text.user.subscribe', {
    username,
    id,
    days: record.durationDays ?? 0,
    start: record.startDate,
    end: record.endDate,
  });

/**
 * Subscribe or renew (docs/product.md "Money"): monthly 30 days, yearly 365, custom as given. While the
 * current period runs, the new one starts at its end ("renew"); otherwise it starts now
 * ("subscribe"). Users of an administrator role are refused.
 */
export async function setSubscription(
  db: Db,
  body: SetSubscriptionBody,
  operator: Operator,
): Promise<{ item: UserItem; record: SubscriptionRecord; username: string }> {
  return writeTransaction(db, (trx) => subscribe(trx, body, operator));
}

/**
 * setSubscription's work inside the caller's write transaction (an idempotent renewal runs it
 * with its key, decision 0109: a renewal sent twice must not extend twice).
 */
export async function subscribe(
  trx: Db,
  body: SetSubscriptionBody,
  operator: Operator,
): Promise<{ item: UserItem; record: SubscriptionRecord; username: string }> {
  const days = body.type === 'custom' ? body.durationDays : SUBSCRIPTION_DAYS[body.type];
  if (days === undefined) throw new FieldAppError(400, 'durationDays', 'subscription.customDays');
  const target = await findTarget(trx, body.userId);
  assertCanManage(operator, target);
  if (target.roleIsAdmin === 1) throw new AppError(400, 'subscription.adminRole', { username: target.username, role: target.roleName });
  const now = nowMs();
  const currentEnd = target.serviceEndAt === null ? null : Number(target.serviceEndAt);
  const renew = currentEnd !== null && currentEnd > now;
  const startAt = renew ? currentEnd : now;
  const endAt = startAt + days * DAY_MS;
  const row = {
    userId: target.id,
    action: renew ? ('renew' as const) : ('subscribe' as const),
    type: body.type,
    durationDays: days,
    startAt,
    endAt,
    operator: operator.username,
    operatorId: operator.id,
    remark: body.remark?.trim() ?? '',
    createdAt: now,
  };
  const id = await repo.insertSubscription(trx, row);
  await repo.updateUser(trx, target.id, { serviceEndAt: endAt, updatedAt: now });
  await subscriptionRenewed(trx, target.id, now);
  return { item: await getUserItem(trx, body.userId), record: toSubscriptionRecord({ id, ...row }), username: target.username };
}

/** Ends the running subscription now (recorded). Answers the username. */
export async function cancelSubscription(db: Db, userId: number, operator: Operator): Promise<string> {
  return writeTransaction(db, async (trx) => {
    const target = await findTarget(trx, userId);
    assertCanManage(operator, target);
    const now = nowMs();
    if (target.serviceEndAt === null || Number(target.serviceEndAt) <= now) {
      throw new AppError(400, 'subscription.notActive', { username: target.username });
    }
    await repo.insertSubscription(trx, {
      userId,
      action: 'cancel',
      type: null,
      durationDays: null,
      startAt: now,
      endAt: now,
      operator: operator.username,
      operatorId: operator.id,
      remark: '',
      createdAt: now,
    });
    await repo.updateUser(trx, userId, { serviceEndAt: now, updatedAt: now });
    return target.username;
  });
}

export async function listSubscriptions(db: Db, userId: number): Promise<SubscriptionRecord[]> {
  await findTarget(db, userId);
  return (await repo.subscriptionsOf(db, userId)).map(toSubscriptionRecord);
}

/**
 * Every user's avatar URL (the set ones), one page of `batch` users at a time in id order: what
 * the upload retention sweep must not remove (decisions 0062, 0110). Lazy, like orderImageUrls.
 */
export async function* avatarUrls(db: Db, batch: number): AsyncGenerator<string[]> {
  let lastId = 0;
  for (;;) {
    const rows = await repo.avatarsAfter(db, lastId, batch);
    if (rows.length === 0) return;
    lastId = Number(rows[rows.length - 1]!.id);
    yield rows.filter((row) => row.avatar !== '').map((row) => row.avatar);
  }
}
