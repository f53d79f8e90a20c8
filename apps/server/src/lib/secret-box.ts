import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import { configuredOrKeptSecret } from './key-file.ts';

/**
 * Small secrets kept in the database but not readable from a dump of it (the authenticator
 * secrets of two-step verification, decision 0091): AES-256-GCM from node:crypto, a fresh
 * 12-byte nonce per value, and a context (e.g. `totp:<user id>`) as additional data, so a value
 * copied onto another row does not open there. The key lives outside the database.
 *
 * Stored form: `v1.<nonce>.<ciphertext>.<tag>`, each part base64url.
 */
export interface SecretBox {
  seal(plain: string, context: string): string;
  /** The plain text, or null when the value was not sealed with this key and context (never throws). */
  open(sealed: string, context: string): string | null;
}

export function secretBox(keyMaterial: string): SecretBox {
  // Any string of at least 32 characters: its SHA-256 is the 256-bit key.
  const key = hash('sha256', keyMaterial, 'buffer');
  return {
    seal(plain, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', nonce, body, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const [version, nonce, body, tag] = sealed.split('.');
      if (version !== 'v1' || nonce === undefined || body === undefined || tag === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/**
 * The key material: the configured value (TOTP_SECRET_KEY; several instances must share it),
 * else one generated on first start and kept in `<dataDir>/<fileName>`, like the evidence-link
 * secret. Losing it makes every stored secret unreadable (each user then needs a super admin to
 * reset their second factor).
 */
export const resolveKeyMaterial = (dataDir: string, fileName: string, configured: string | null, min = 32): string =>
  configuredOrKeptSecret(dataDir, fileName, configured, {
    min,
    unreadable: 'holds no key; restore it from a backup (deleting it makes the stored secrets unreadable)',
  });
