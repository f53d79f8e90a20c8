import { Type, type Static, type TSchema } from 'typebox';

/** Every answer: `{status, msg, data}`. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ status: Type.Integer(), msg: Type.String(), data });

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

/** A page of rows, as every list call answers (`{list, total}`). */
export const Page = <T extends TSchema>(row: T) => Type.Object({ list: Type.Array(row), total: Type.Integer({ minimum: 0 }) });

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
});
export type PageQuery = Static<typeof PageQuery>;

export const Empty = Type.Null();
