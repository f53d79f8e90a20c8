/**
 * Body status codes. 200 means ok; the 5000x codes are the session errors
 * (docs/product.md "The back office") that open the "You have been logged out" dialog.
 */
export const Status = {
  OK: 200,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  SERVER_ERROR: 500,
  UNAVAILABLE: 503,
  /** The bearer token is not a token this server could have issued. */
  TOKEN_ILLEGAL: 50008,
  /** The session was ended: account disabled, password reset, or logged out elsewhere. */
  TOKEN_REVOKED: 50012,
  /** The session outlived its lifetime. */
  TOKEN_EXPIRED: 50014,
} as const;
export type StatusCode = (typeof Status)[keyof typeof Status];

/** The statuses that end a session on the client. */
export const SESSION_ENDED_STATUSES: readonly number[] = [Status.TOKEN_ILLEGAL, Status.TOKEN_REVOKED, Status.TOKEN_EXPIRED];

/** The shape of every answer (the schema builder is `Envelope` in envelope.ts). */
export interface ApiEnvelope<T> {
  status: number;
  msg: string;
  data: T;
}
