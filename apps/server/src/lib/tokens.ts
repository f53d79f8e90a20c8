import { createHash, randomBytes } from 'node:crypto';

/** `cp_` + base64url of 32 random bytes (43 characters). */
export const TOKEN_PATTERN = /^cp_[A-Za-z0-9_-]{43}$/;

export const newToken = (): string => `cp_${randomBytes(32).toString('base64url')}`;

/** What the database stores: sha256 hex of the token. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
