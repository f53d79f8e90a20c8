import type { MessageKey, MessageParams } from './messages.ts';

/**
 * A domain error: the body status of the envelope, a message key of lib/messages.ts and its
 * parameters. The error handler localizes the message and picks the HTTP status.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly params: MessageParams = {},
    readonly data: Record<string, unknown> | null = null,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

/**
 * A domain error about one field of the request: the answer's data carries
 * `{errors: [{field, message}]}` (message = the localized msg), so forms show it on the field.
 */
export class FieldAppError extends AppError {
  constructor(
    status: number,
    readonly field: string,
    key: MessageKey,
    params: MessageParams = {},
  ) {
    super(status, key, params);
    this.name = 'FieldAppError';
  }
}

/** HTTP status for a body status: standard codes map to themselves, session codes to 401. */
export function httpStatusFor(status: number): number {
  if (status >= 400 && status <= 599) return status;
  if (status >= 50000) return 401;
  return 500;
}
