import { hash, randomBytes } from 'node:crypto';

/** `cp_` + base64url of 32 random bytes (43 characters). */
export const TOKEN_PATTERN = /^cp_[A-Za-z0-9_-]{43}$/;

export const newToken = (): string => `cp_${randomBytes(32).toString('base64url')}`;

/** What the database stores: sha256 hex of the token (one-shot crypto.hash: no Hash object per request). */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');
