import { Type, type Static, type TSchema } from 'typebox';

/**
 * Body status codes. 200 means ok (spec §7); the 5000x codes are the session errors of
 * spec §4/§8 that open the "You have been logged out" dialog.
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

/** The statuses that end a session on the client (spec §4). */
export const SESSION_ENDED_STATUSES: readonly number[] = [
  Status.TOKEN_ILLEGAL,
  Status.TOKEN_REVOKED,
  Status.TOKEN_EXPIRED,
];

/** Every answer: `{status, msg, data}`. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ status: Type.Integer(), msg: Type.String(), data });

/** A field-level problem, so forms can show the server's message on the field. */
export const FieldError = Type.Object({ field: Type.String(), message: Type.String() });
export type FieldError = Static<typeof FieldError>;

/** The data of a failed answer: optional field errors, and the seconds to wait when rate limited. */
export const ErrorData = Type.Union([
  Type.Null(),
  Type.Object({
    errors: Type.Optional(Type.Array(FieldError)),
    retryAfterSeconds: Type.Optional(Type.Integer()),
  }),
]);
export type ErrorData = Static<typeof ErrorData>;

export interface ApiEnvelope<T> {
  status: number;
  msg: string;
  data: T;
}

/** A page of rows, as every list call answers (`{list, total}`). */
export const Page = <T extends TSchema>(row: T) =>
  Type.Object({ list: Type.Array(row), total: Type.Integer({ minimum: 0 }) });

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
});
export type PageQuery = Static<typeof PageQuery>;

export const Empty = Type.Null();
