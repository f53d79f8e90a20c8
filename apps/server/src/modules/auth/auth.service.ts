import {
  RoleName,
  Status,
  VIEW_AS_ROLES,
  type CurrentUser,
  type LoginBody,
  type LoginChallenge,
  type LoginData,
  type LoginSession,
  type SecondFactorBody,
  type SecondFactorLoginData,
  type SecondFactorStep,
  type TotpEnrolment,
} from '@clearplay/contract';
import type { AppConfig } from '../../config.ts';
import { writeLockLent } from '../../db/sqlite-locking.ts';
import type { Db } from '../../db/index.ts';
import type { RevokeReason } from '../../db/schema.ts';
import type { AuthUser } from '../../http/route-context.ts';
import { deleteInBatches } from '../../lib/batches.ts';
import { AppError } from '../../lib/errors.ts';
import { verifyAgainstDummy, verifyPassword } from '../../lib/passwords.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, nowMs, toIso } from '../../lib/time.ts';
import { TOKEN_PATTERN, hashToken, newToken } from '../../lib/tokens.ts';
import * as repo from './auth.repository.ts';
import * as factorRepo from './second-factor.repository.ts';
import {
  confirmPending,
  factorRequired,
  findFactor,
  newEnrolment,
  spendCode,
  spendRecoveryCode,
  type SecondFactorConfig,
} from './second-factor.service.ts';

/** Brute-force rule: this many counted failures of one (username, IP) pair within the window lock the pair. */
export const LOCK_MAX_FAILURES = 5;
export const LOCK_WINDOW_MS = 10 * MINUTE_MS;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = MINUTE_MS;

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export function parsePermissions(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Parsed permission lists by their stored text. Every request reads the role's text afresh;
 * only the parse of a text already seen is skipped (a changed role is a new text, parsed at
 * once). There are a handful of roles; the map is emptied if it ever grows past a bound.
 */
const parsedPermissions = new Map<string, string[]>();
const PARSED_PERMISSIONS_MAX = 256;

function permissionsOf(json: string): string[] {
  let permissions = parsedPermissions.get(json);
  if (permissions === undefined) {
    if (parsedPermissions.size >= PARSED_PERMISSIONS_MAX) parsedPermissions.clear();
    // Frozen: every request of that role shares the one list.
    permissions = Object.freeze(parsePermissions(json)) as string[];
    parsedPermissions.set(json, permissions);
  }
  return permissions;
}

/** A user's columns beside id, username and role name (CURRENT_USER_COLUMNS; null where a left join found no row). */
interface UserColumns {
  nickname: string | null;
  roleId: number | null;
  wechat: string | null;
  phone: string | null;
  avatar: string | null;
  roleDescription: string | null;
  roleDescriptionEn: string | null;
  rolePermissions: string | null;
  roleIsAdmin: number | null;
}

/**
 * The signed-in user of a session: the spec's Current user and the session, made as one object
 * (the session check makes one per call, so no intermediate objects are copied into it).
 */
function toAuthUser(
  id: number,
  username: string,
  roleName: string,
  row: UserColumns,
  sessionId: number,
  sessionExpiresAt: number,
): AuthUser {
  return {
    sessionId,
    sessionExpiresAt,
    id,
    username,
    nickname: row.nickname ?? '',
    roleId: row.roleId ?? 0,
    wechat: row.wechat ?? '',
    phone: row.phone ?? '',
    avatar: row.avatar ?? '',
    role: {
      name: roleName,
      description: row.roleDescription ?? '',
      descriptionEn: row.roleDescriptionEn ?? '',
      permissions: permissionsOf(row.rolePermissions ?? '[]'),
      isAdmin: row.roleIsAdmin === 1,
    },
  };
}

async function assertNotLocked(db: Db, username: string, client: ClientInfo, now: number): Promise<void> {
  const lastSuccess = await repo.lastSuccessAt(db, username, client.ip);
  const since = Math.max(now - LOCK_WINDOW_MS, lastSuccess ?? 0);
  const failures = await repo.recentFailureTimes(db, username, client.ip, since, LOCK_MAX_FAILURES);
  const oldestCounted = failures[LOCK_MAX_FAILURES - 1];
  if (oldestCounted === undefined) return;
  const retryAfterSeconds = Math.max(1, Math.ceil((oldestCounted + LOCK_WINDOW_MS - now) / 1000));
  await repo.insertLoginRecord(db, { username, userId: null, ...client, success: false, reason: 'locked', createdAt: now });
  throw new AppError(Status.TOO_MANY_REQUESTS, 'auth.locked', { minutes: Math.ceil(retryAfterSeconds / 60) }, { retryAfterSeconds });
}

type LoginConfig = Pick<AppConfig, 'sessionTtlHours' | 'sessionRememberDays'> & SecondFactorConfig;

/** How long the step between the password and the second factor may take: typing a code, or setting up an app. */
export const TICKET_TTL_MS: Record<SecondFactorStep, number> = { required: 5 * MINUTE_MS, enrol: 15 * MINUTE_MS };

/**
 * Checks the credentials. Without a second factor (and none required) it opens a session, as
 * it always did. With one, or when the account must set one up first (decision 0091), it opens
 * no session: it answers the step that comes next and a single-use ticket for it, and records
 * no sign-in yet (a success would reset the lockout's count before the code is known).
 * Every refused attempt is recorded in login_records. Unknown users cost the same argon2
 * verification as real ones.
 */
export async function login(db: Db, config: LoginConfig, body: LoginBody, client: ClientInfo): Promise<LoginData> {
  const { username, password } = body;
  const now = nowMs();
  await assertNotLocked(db, username, client, now);

  const user = await repo.findUserByUsername(db, username);
  const fail = async (reason: repo.LoginReason, status: number, key: 'auth.badCredentials' | 'auth.accountDisabled') => {
    await repo.insertLoginRecord(db, { username, userId: user?.id ?? null, ...client, success: false, reason, createdAt: now });
    return new AppError(status, key);
  };
  if (user === undefined) {
    await verifyAgainstDummy(password);
    throw await fail('unknown_user', Status.BAD_REQUEST, 'auth.badCredentials');
  }
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw await fail('bad_password', Status.BAD_REQUEST, 'auth.badCredentials');
  }
  // Only someone who knows the password learns that the account is disabled.
  if (user.status !== 1) throw await fail('disabled', Status.FORBIDDEN, 'auth.accountDisabled');

  const step: SecondFactorStep | null =
    user.totpSecret !== null ? 'required' : factorRequired(config.totp.required, user.roleName, user.totpExempt === 1) ? 'enrol' : null;
  if (step !== null) return issueTicket(db, user.id, step, body.remember === true, now);
  return openSession(db, config, { id: user.id, username }, body.remember === true, client, now);
}

async function openSession(
  db: Db,
  config: Pick<AppConfig, 'sessionTtlHours' | 'sessionRememberDays'>,
  user: { id: number; username: string },
  remember: boolean,
  client: ClientInfo,
  now: number,
  ticketId?: number,
): Promise<LoginSession> {
  const token = newToken();
  const expiresAt = now + (remember ? config.sessionRememberDays * DAY_MS : config.sessionTtlHours * HOUR_MS);
  await db.transaction().execute(async (trx) => {
    // A ticket opens one session: a second use (at the same time) finds it spent.
    if (ticketId !== undefined && !(await factorRepo.spendTicket(trx, ticketId, now))) throw new AppError(400, 'auth.ticketInvalid');
    await repo.insertSession(trx, { tokenHash: hashToken(token), userId: user.id, createdAt: now, expiresAt, ...client });
    await repo.setLoginAt(trx, user.id, now);
    await repo.insertLoginRecord(trx, { username: user.username, userId: user.id, ...client, success: true, reason: 'ok', createdAt: now });
  });
  return { token, expiresAt: toIso(expiresAt) };
}

async function issueTicket(db: Db, userId: number, step: SecondFactorStep, remember: boolean, now: number): Promise<LoginChallenge> {
  const ticket = `st_${newToken().slice(3)}`;
  const expiresAt = now + TICKET_TTL_MS[step];
  await factorRepo.insertTicket(db, { tokenHash: hashToken(ticket), userId, step, remember: remember ? 1 : 0, createdAt: now, expiresAt });
  return { secondFactor: step, ticket, expiresAt: toIso(expiresAt) };
}

/** A live, unspent ticket and its enabled user, or the error that sends the user back to the password. */
async function ticketUser(db: Db, ticket: string, now: number) {
  const row = await factorRepo.findTicket(db, hashToken(ticket));
  if (row === undefined || row.usedAt !== null || Number(row.expiresAt) <= now) throw new AppError(400, 'auth.ticketInvalid');
  const user = await findFactor(db, row.userId).catch(() => undefined);
  if (user === undefined) throw new AppError(400, 'auth.ticketInvalid');
  if (user.status !== 1) throw new AppError(Status.FORBIDDEN, 'auth.accountDisabled');
  return { ticket: { id: row.id, step: row.step, remember: row.remember === 1 }, user };
}

/** The username a ticket was given to ('' for an unknown one), for the operation log. */
export async function usernameOfTicket(db: Db, ticket: string): Promise<string> {
  const row = await factorRepo.findTicket(db, hashToken(ticket));
  if (row === undefined) return '';
  return (await factorRepo.findFactorOf(db, row.userId))?.username ?? '';
}

/** POST /admin/user/login/enrol: a new authenticator secret for an account that must set one up before it signs in. */
export async function enrolAtLogin(db: Db, config: SecondFactorConfig, ticket: string): Promise<TotpEnrolment> {
  const { ticket: row, user } = await ticketUser(db, ticket, nowMs());
  if (row.step !== 'enrol' || user.totpSecret !== null) throw new AppError(400, 'auth.ticketInvalid');
  return newEnrolment(db, config, user.id, user.username);
}

/**
 * POST /admin/user/login/second-factor: the ticket with the authenticator's code (or, when a
 * factor is set up, an unused recovery code, which then is used up). A wrong one is a failed
 * sign-in of the account from this address: it counts towards the lockout like a wrong
 * password. A right one opens the session; for a ticket of step `enrol` the code confirms the
 * new app and the answer carries the ten recovery codes, shown once.
 */
export async function finishSecondFactor(
  db: Db,
  config: LoginConfig,
  body: SecondFactorBody,
  client: ClientInfo,
): Promise<SecondFactorLoginData> {
  const now = nowMs();
  if ((body.code === undefined) === (body.recoveryCode === undefined)) throw new AppError(400, 'auth.codeOrRecoveryCode');
  const { ticket, user } = await ticketUser(db, body.ticket, now);
  await assertNotLocked(db, user.username, client, now);
  const failed = async () => {
    await repo.insertLoginRecord(db, {
      username: user.username,
      userId: user.id,
      ...client,
      success: false,
      reason: 'bad_code',
      createdAt: now,
    });
    return new AppError(400, 'auth.badCode');
  };

  let recoveryCodes: string[] | undefined;
  if (ticket.step === 'required') {
    // The factor was reset since the password was checked: start again.
    if (user.totpSecret === null) throw new AppError(400, 'auth.ticketInvalid');
    const ok =
      body.code !== undefined
        ? await spendCode(config, db, user, body.code, now)
        : await spendRecoveryCode(db, user.id, body.recoveryCode ?? '', now);
    if (!ok) throw await failed();
  } else {
    if (body.code === undefined) throw new AppError(400, 'auth.enrolNeedsCode');
    if (user.totpSecret !== null) throw new AppError(400, 'auth.ticketInvalid');
    const codes = await confirmPending(config, db, user, body.code);
    if (codes === null) throw await failed();
    recoveryCodes = codes;
  }
  const session = await openSession(db, config, user, ticket.remember, client, now, ticket.id);
  return recoveryCodes === undefined ? session : { ...session, recoveryCodes };
}

const REVOKED_KEYS = {
  disabled: 'auth.revoked.disabled',
  password_reset: 'auth.revoked.password_reset',
  deleted: 'auth.revoked.deleted',
  logged_out_elsewhere: 'auth.revoked.logged_out_elsewhere',
  role_changed: 'auth.revoked.role_changed',
  second_factor_reset: 'auth.revoked.second_factor_reset',
} as const;

/** The token of an Authorization header, or the spec's error for a missing or malformed one. */
function bearerToken(authorization: string | undefined): string {
  // The usual form, "Bearer <token>" exactly, needs no trimming or pattern for the prefix.
  if (authorization !== undefined && authorization.startsWith('Bearer ')) {
    const token = authorization.slice(7);
    if (TOKEN_PATTERN.test(token)) return token;
  }
  const header = authorization?.trim() ?? '';
  if (header === '') throw new AppError(Status.UNAUTHORIZED, 'auth.required');
  const match = /^Bearer\s+(.*)$/i.exec(header);
  const token = match?.[1]?.trim();
  if (match !== null && token === '') throw new AppError(Status.UNAUTHORIZED, 'auth.required');
  if (token === undefined || !TOKEN_PATTERN.test(token)) throw new AppError(Status.TOKEN_ILLEGAL, 'auth.tokenMalformed');
  return token;
}

type SessionRow = NonNullable<Awaited<ReturnType<typeof repo.findSessionByTokenHash>>>;

/**
 * Resolves the Authorization header to the signed-in user, or throws the spec's session
 * error: none/unknown -> 401, malformed -> 50008, ended by someone else -> 50012,
 * expired -> 50014. It reads the session row on every call (no cache: a revocation by any
 * process counts at the next call). Where the read answers at once (SQLite, decision 0071) so
 * does this, and an error is thrown rather than rejected; it answers a promise when the read
 * does or when it writes (a revoked or touched session).
 */
export function authenticate(db: Db, authorization: string | undefined): AuthUser | Promise<AuthUser> {
  const row = repo.findSessionByTokenHash(db, hashToken(bearerToken(authorization)));
  return row instanceof Promise ? row.then((found) => sessionUser(db, found)) : sessionUser(db, row);
}

function sessionUser(db: Db, row: SessionRow | undefined): AuthUser | Promise<AuthUser> {
  if (row === undefined) throw new AppError(Status.UNAUTHORIZED, 'auth.required');
  if (row.revokedAt !== null) {
    // The user's own logout makes the token simply unknown; anything else ended the session on them.
    if (row.revokeReason === 'logout' || row.revokeReason === null) throw new AppError(Status.UNAUTHORIZED, 'auth.required');
    throw new AppError(Status.TOKEN_REVOKED, REVOKED_KEYS[row.revokeReason]);
  }
  const now = nowMs();
  if (row.expiresAt <= now) throw new AppError(Status.TOKEN_EXPIRED, 'auth.expired');
  if (row.username === null || row.roleName === null) {
    return repo.revokeSession(db, row.sessionId, 'deleted', now).then(() => {
      throw new AppError(Status.TOKEN_REVOKED, 'auth.revoked.deleted');
    });
  }
  if (row.status !== 1) {
    return repo.revokeSession(db, row.sessionId, 'disabled', now).then(() => {
      throw new AppError(Status.TOKEN_REVOKED, 'auth.revoked.disabled');
    });
  }
  const real = toAuthUser(row.userId, row.username, row.roleName, row, row.sessionId, row.expiresAt);
  // a viewing session (decision 0060) reads the viewed account or role: a promise, like a touch
  // Not while an order import on another thread holds SQLite's write lock (decision 0093): the
  // touch would wait for it, and the call with it; the next call after the import writes it.
  if (now - row.lastSeenAt >= TOUCH_EVERY_MS && !writeLockLent(db)) {
    return repo
      .touchSession(db, row.sessionId, now)
      .then(() => (row.viewRole === null ? real : viewedAs(db, real, row.viewRole, row.viewUserId)));
  }
  return row.viewRole === null ? real : viewedAs(db, real, row.viewRole, row.viewUserId);
}

// ── switch roles (decision 0060): the viewed principal; starting and ending a view is modules/view-as ──

/**
 * The principal of a session that views the app as another role: the viewed role's permissions
 * (never more than the super admin's own: the intersection), and for a shop the shop account's
 * identity, so every place that scopes by the caller's id or permissions acts as that shop.
 * The state stays only while it is valid: the session's own user a super admin, the viewed
 * role existing, the viewed shop enabled and still a shop. Otherwise the view is cleared and the
 * call refused (403), never answered as the super admin, so a stale view cannot widen a call.
 */
async function viewedAs(db: Db, real: AuthUser, viewRole: string, viewUserId: number | null): Promise<AuthUser> {
  const refuse = async (): Promise<never> => {
    await repo.setSessionView(db, real.sessionId, null, null);
    throw new AppError(Status.FORBIDDEN, 'viewAs.ended');
  };
  if (real.role.name !== RoleName.SUPER_ADMIN || !(VIEW_AS_ROLES as readonly string[]).includes(viewRole)) return refuse();
  const by = { id: real.id, username: real.username };
  const narrowed = (permissions: readonly string[]) => permissions.filter((p) => real.role.permissions.includes(p));

  if (viewUserId !== null) {
    const target = await repo.findUserWithRoleById(db, viewUserId);
    if (target === undefined || target.status !== 1 || target.roleName !== viewRole) return refuse();
    const user = toAuthUser(target.id, target.username, target.roleName, target, real.sessionId, real.sessionExpiresAt);
    return {
      ...user,
      role: { ...user.role, permissions: narrowed(user.role.permissions) },
      viewAs: { role: viewRole, userId: target.id, username: target.username, nickname: target.nickname, by },
    };
  }
  if (viewRole === RoleName.SHOP) return refuse();
  const role = await repo.findRoleByName(db, viewRole);
  if (role === undefined) return refuse();
  return {
    ...real,
    roleId: role.id,
    role: {
      name: role.name,
      description: role.description,
      descriptionEn: role.descriptionEn ?? '',
      permissions: narrowed(permissionsOf(role.permissions)),
      isAdmin: role.isAdmin === 1,
    },
    viewAs: { role: viewRole, userId: null, username: null, nickname: null, by },
  };
}

export async function logout(db: Db, sessionId: number): Promise<void> {
  await repo.revokeSession(db, sessionId, 'logout', nowMs());
}

/**
 * Ends every live session of a user (account disabled, password reset, deleted, or an
 * explicit "log out everywhere"). Their tokens then answer 50012. Returns how many ended.
 * `at` lets a caller's transaction stamp the revocation with the time of its own change.
 */
export function revokeUserSessions(db: Db, userId: number, reason: Exclude<RevokeReason, 'logout'>, at = nowMs()): Promise<number> {
  return repo.revokeSessionsOfUser(db, userId, reason, at);
}

/** The current user (the user-info answer: the user, their role and its permissions) for a request's user. */
export function currentUser(user: AuthUser): CurrentUser {
  const { sessionId: _sessionId, ...current } = user;
  return current;
}

// ── the user's own sessions and sign-ins (user centre); the session check above is untouched ──

/** Ends every session of the user but `keepSessionId` (the caller's own); answers how many. */
export const revokeOtherSessions = (
  db: Db,
  userId: number,
  keepSessionId: number,
  reason: Exclude<RevokeReason, 'logout'>,
  at = nowMs(),
): Promise<number> => repo.revokeOtherSessionsOfUser(db, userId, keepSessionId, reason, at);

export const liveSessionsOf = (db: Db, userId: number, now = nowMs()) => repo.liveSessionsOf(db, userId, now);

export async function loginHistoryOf(db: Db, userId: number, page: number, pageSize: number) {
  const [rows, total] = await Promise.all([
    repo.loginRecordsOf(db, userId, (page - 1) * pageSize, pageSize),
    repo.countLoginRecordsOf(db, userId),
  ]);
  return { rows, total };
}

// ── for modules/view-as (decision 0060): what a session views as is state of the session, kept here ──

/** Sets (or, with nulls, clears) what a live session views the app as; answers whether a row changed. */
export const setSessionView = (db: Db, sessionId: number, viewRole: string | null, viewUserId: number | null): Promise<boolean> =>
  repo.setSessionView(db, sessionId, viewRole, viewUserId);

/** A user with their role (name, status and the Current user's columns), or undefined: the read the session check views a shop with. */
export const findUserWithRoleById = (db: Db, id: number) => repo.findUserWithRoleById(db, id);

// ── retention (decision 0035): the retention job calls these with its cut-offs (decision 0110) ──

/**
 * Removes, batch by batch, the sessions that expired before `before` (the job passes a day before
 * now: within that day an expired token still answers "session expired"). Answers how many went.
 */
export const removeExpiredSessions = (db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> =>
  deleteInBatches(() => repo.deleteExpiredSessions(db, before, batch), signal);

/** Removes, batch by batch, the login records written before `before`. Answers how many went. */
export const removeOldLoginRecords = (db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> =>
  deleteInBatches(() => repo.deleteLoginRecordsBefore(db, before, batch), signal);
