import { Type, type Static } from 'typebox';
import { Instant, TextFilter } from './common.ts';

export const LogStatus = Type.Union([Type.Literal('success'), Type.Literal('failed')]);
export type LogStatus = Static<typeof LogStatus>;

/** Spec §3 "Operation log", plus what a detail view needs. */
export const LogItem = Type.Object({
  id: Type.Integer(),
  module: Type.String(),
  action: Type.String(),
  /** Human-readable, naming the record touched, e.g. `user shop0001 (#12): disabled`. */
  content: Type.String(),
  operator: Type.String(),
  operatorId: Type.Union([Type.Integer(), Type.Null()]),
  status: LogStatus,
  ip: Type.String(),
  createTime: Instant,
  method: Type.String(),
  path: Type.String(),
  durationMs: Type.Integer(),
  /** The answer's message when it failed. */
  errorMsg: Type.String(),
});
export type LogItem = Static<typeof LogItem>;

export const LogDetail = Type.Intersect([
  LogItem,
  Type.Object({ payload: Type.String({ description: 'request body as JSON, secrets masked, cut at 4 KB' }), userAgent: Type.String() }),
]);
export type LogDetail = Static<typeof LogDetail>;

export const LogListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
    module: TextFilter,
    action: TextFilter,
    operator: TextFilter,
    status: Type.Optional(LogStatus),
    startTime: Type.Optional(Instant),
    endTime: Type.Optional(Instant),
  },
  { additionalProperties: false },
);
export type LogListQuery = Static<typeof LogListQuery>;
