import { randomInt } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** Algorithm.Argon2id: the enum is an ambient const enum, which isolatedModules cannot read. */
const ARGON2ID = 2 as Algorithm.Argon2id;

/** argon2id with OWASP's minimum recommended cost (19 MiB, 2 passes). */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // a corrupt hash never lets anyone in
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Burns the same time as a real check, for usernames that do not exist, so response
 * timing does not reveal which usernames are real.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A random password without look-alike characters (no 0/O, 1/l/I). */
export function generatePassword(length = 16): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
