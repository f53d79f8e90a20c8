import { randomInt } from 'node:crypto';

/** Letters and digits that cannot be mistaken for each other when read aloud or copied (no 0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 8;

/**
 * A short public verification code (31^8 ≈ 8.5e11 codes; uniqueness is enforced by orders_code_idx).
 * `draw(n)` picks a whole number below n: the cryptographic generator, or the demo's seeded one.
 */
export function newVerificationCode(draw: (n: number) => number = randomInt): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[draw(ALPHABET.length)];
  return code;
}
