import { randomInt } from 'node:crypto';
import { RoleName, type SecondFactorState, type TotpEnrolment } from '@clearplay/contract';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { AppConfig, TotpRequired } from '../../config.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Db } from '../../db/index.ts';
import { deleteInBatches } from '../../lib/batches.ts';
import { AppError, FieldAppError } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { resolveKeyMaterial, secretBox, type SecretBox } from '../../lib/secret-box.ts';
import { nowMs, toIsoOrNull } from '../../lib/time.ts';
import * as repo from './second-factor.repository.ts';

/**
 * Two-step verification (TOTP, RFC 6238; decision 0091): the authenticator app's secret, the
 * check of its codes, the recovery codes, who must have a factor. The TOTP arithmetic is the
 * `otpauth` library's; the secrets are sealed with AES-256-GCM (lib/secret-box.ts) under
 * TOTP_SECRET_KEY before they reach the database. Sign-in itself is auth.service's.
 */

const ISSUER = 'ClearPlay';
/** SHA-1, 6 digits, 30 s: what every authenticator app reads from a QR code. */
const PERIOD = 30;
/** A code of the previous or the next 30 seconds is taken too (clocks drift). */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export type SecondFactorConfig = Pick<AppConfig, 'dataDir' | 'totp'>;

const boxes = new Map<string, SecretBox>();
/** The box of this configuration's key (resolved once: the configured key, or the one kept in DATA_DIR). */
function boxOf(config: SecondFactorConfig): SecretBox {
  const id = `${config.dataDir}\0${config.totp.secretKey ?? ''}`;
  let box = boxes.get(id);
  if (box === undefined) {
    box = secretBox(resolveKeyMaterial(config.dataDir, 'totp-secret-key', config.totp.secretKey));
    boxes.set(id, box);
  }
  return box;
}

const context = (userId: number) => `totp:${userId}`;

/** Whether a user must sign in with a second factor: their role against TOTP_REQUIRED; never a demo account. */
export function factorRequired(required: TotpRequired, roleName: string, exempt: boolean): boolean {
  if (exempt || required === 'none') return false;
  if (required === 'staff') return roleName !== RoleName.SHOP;
  return roleName === RoleName.SUPER_ADMIN || roleName === RoleName.ADMIN;
}

const totpOf = (base32: string, username = '') =>
  new TOTP({ issuer: ISSUER, label: username, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(base32) });

/**
 * The 30-second step a code belongs to, when it is the code of `base32` now (or one step
 * before or after); null otherwise. Spaces in the code are ignored.
 */
export function codeStep(base32: string, code: string, at = nowMs()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(base32).validate({ token, timestamp: at, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: at }) + delta;
}

/** A secret sealed for the user's row, or null when it does not open (another key, another row). */
export const openSecret = (config: SecondFactorConfig, userId: number, sealed: string | null): string | null =>
  sealed === null ? null : boxOf(config).open(sealed, context(userId));

/** A new secret (160 bits, RFC 4226's recommendation), sealed as the user's pending one; answers what the app is set up with. */
export async function newEnrolment(db: Db, config: SecondFactorConfig, userId: number, username: string): Promise<TotpEnrolment> {
  const secret = new Secret({ size: 20 }).base32;
  await repo.setPendingSecret(db, userId, boxOf(config).seal(secret, context(userId)));
  const otpauthUrl = totpOf(secret, username).toString();
  const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 1, width: 220 });
  return { secret, otpauthUrl, qrCode };
}

/** The normalised form of a recovery code: lower case, letters and digits only. */
export const normaliseRecoveryCode = (code: string): string => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Ten new recovery codes as shown (`abcde-fghjk`) and their argon2id hashes. */
export async function newRecoveryCodes(): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let raw = '';
    for (let i = 0; i < 10; i++) raw += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  const hashes = await Promise.all(codes.map((code) => hashPassword(normaliseRecoveryCode(code))));
  return { codes, hashes };
}

/** Spends an unused recovery code of the user that matches; answers whether one did. */
export async function spendRecoveryCode(db: Db, userId: number, code: string, at = nowMs()): Promise<boolean> {
  const normal = normaliseRecoveryCode(code);
  if (normal.length !== 10) return false;
  for (const row of await repo.unusedRecoveryCodes(db, userId)) {
    if (await verifyPassword(row.codeHash, normal)) return repo.useRecoveryCode(db, row.id, at);
  }
  return false;
}

/** Checks a code of the user's factor and takes its step as used (a code works once). */
export async function spendCode(config: SecondFactorConfig, db: Db, user: repo.FactorRow, code: string, at = nowMs()): Promise<boolean> {
  const secret = openSecret(config, user.id, user.totpSecret);
  if (secret === null) return false;
  const step = codeStep(secret, code, at);
  return step !== null && repo.claimStep(db, user.id, step);
}

/**
 * Confirms the pending set-up with its first code: the factor is on, ten recovery codes
 * replace any earlier ones. Answers the codes (shown once), or null when the code is wrong.
 * Throws when there is no set-up in progress.
 */
export async function confirmPending(config: SecondFactorConfig, db: Db, user: repo.FactorRow, code: string): Promise<string[] | null> {
  const pending = user.totpPendingSecret;
  const secret = openSecret(config, user.id, pending);
  if (pending === null || secret === null) throw new AppError(400, 'totp.noEnrolment');
  const at = nowMs();
  const step = codeStep(secret, code, at);
  if (step === null) return null;
  const { codes, hashes } = await newRecoveryCodes();
  const enabled = await writeTransaction(db, async (trx) => {
    if (!(await repo.enableFactor(trx, user.id, pending, step, at))) return false;
    await repo.replaceRecoveryCodes(trx, user.id, hashes, at);
    return true;
  });
  // Another set-up was started meanwhile (another tab): its QR code is the one to confirm.
  if (!enabled) throw new AppError(409, 'totp.enrolmentReplaced');
  return codes;
}

export async function findFactor(db: Db, userId: number): Promise<repo.FactorRow> {
  const row = await repo.findFactorOf(db, userId);
  if (row === undefined) throw new AppError(404, 'user.notFound', { id: userId });
  return row;
}

// ── the user's own settings (modules/account) ──

export async function stateOf(db: Db, config: SecondFactorConfig, userId: number): Promise<SecondFactorState> {
  const row = await findFactor(db, userId);
  const enabled = row.totpSecret !== null;
  return {
    enabled,
    required: factorRequired(config.totp.required, row.roleName, row.totpExempt === 1),
    exempt: row.totpExempt === 1,
    enabledTime: toIsoOrNull(row.totpEnabledAt === null ? null : Number(row.totpEnabledAt)),
    recoveryCodesLeft: enabled ? await repo.countUnusedRecoveryCodes(db, userId) : 0,
  };
}

/** Starts setting up an authenticator app (refused while one is set up: turn it off first). */
export async function startEnrolment(db: Db, config: SecondFactorConfig, userId: number): Promise<TotpEnrolment> {
  const row = await findFactor(db, userId);
  if (row.totpSecret !== null) throw new AppError(409, 'totp.alreadyEnabled');
  return newEnrolment(db, config, row.id, row.username);
}

export async function confirmEnrolment(db: Db, config: SecondFactorConfig, userId: number, code: string): Promise<string[]> {
  const row = await findFactor(db, userId);
  if (row.totpSecret !== null) throw new AppError(409, 'totp.alreadyEnabled');
  const codes = await confirmPending(config, db, row, code);
  if (codes === null) throw new FieldAppError(400, 'code', 'totp.badCode');
  return codes;
}

/** Turns the factor off with a current code or a recovery code; refused where it is required. */
export async function disable(
  db: Db,
  config: SecondFactorConfig,
  userId: number,
  proof: { code?: string; recoveryCode?: string },
): Promise<void> {
  const row = await findFactor(db, userId);
  if (row.totpSecret === null) throw new AppError(400, 'totp.notEnabled');
  if (factorRequired(config.totp.required, row.roleName, row.totpExempt === 1)) throw new AppError(403, 'totp.requiredForRole');
  const at = nowMs();
  let ok: boolean;
  if (proof.code !== undefined) ok = await spendCode(config, db, row, proof.code, at);
  else if (proof.recoveryCode !== undefined) ok = await spendRecoveryCode(db, row.id, proof.recoveryCode, at);
  else throw new FieldAppError(400, 'code', 'totp.codeMissing');
  if (!ok) throw new FieldAppError(400, proof.code !== undefined ? 'code' : 'recoveryCode', 'totp.badCode');
  await writeTransaction(db, (trx) => repo.clearFactor(trx, row.id, at));
}

/** Removes a user's factor (a super admin's reset; the caller ends the sessions in the same transaction). */
export const clearFactor = (db: Db, userId: number, at = nowMs()): Promise<void> => repo.clearFactor(db, userId, at);

/**
 * Removes, batch by batch, the sign-in tickets that expired before `before` (the retention job,
 * decisions 0035 and 0110). Answers how many went.
 */
export const removeExpiredLoginTickets = (db: Db, before: number, batch: number, signal?: AbortSignal): Promise<number> =>
  deleteInBatches(() => repo.deleteExpiredTickets(db, before, batch), signal);
