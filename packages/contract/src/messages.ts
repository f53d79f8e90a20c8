import { Type, type Static } from 'typebox';
import { IdsBody, Instant } from './common.ts';

/**
 * The message box (docs/product.md "Messages"): GET /admin/message/list,
 * POST /admin/message/read, GET /admin/message/unread (ETag / 304). Every signed-in user
 * reads only their own items; titles and texts come in the request's language.
 */
export const MessageKindSchema = Type.Union([Type.Literal('message'), Type.Literal('notice'), Type.Literal('todo')]);
export const MessageReadStateSchema = Type.Union([Type.Literal('unread'), Type.Literal('read'), Type.Literal('all')]);
export const MessageTargetSchema = Type.Object({
  type: Type.Union([Type.Literal('order'), Type.Literal('announcement'), Type.Literal('subscription'), Type.Literal('ledger')]),
  /** The order / announcement id, or the user whose subscription or ledger it is. */
  id: Type.Union([Type.Integer(), Type.Null()]),
});
export type MessageTarget = Static<typeof MessageTargetSchema>;

export const MessageListQuery = Type.Object(
  {
    /** A tab; absent: every kind (the full page). */
    type: Type.Optional(MessageKindSchema),
    read: Type.Optional(MessageReadStateSchema),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  },
  { additionalProperties: false },
);
export type MessageListQuery = Static<typeof MessageListQuery>;

export const MessageItem = Type.Object({
  id: Type.Integer(),
  type: MessageKindSchema,
  /** The event's code (order.created, subscription.expiring…), for icons and tests. */
  event: Type.String(),
  title: Type.String(),
  content: Type.String(),
  target: Type.Union([MessageTargetSchema, Type.Null()]),
  read: Type.Boolean(),
  readTime: Type.Union([Instant, Type.Null()]),
  /** A todo whose work is done (it closed by itself). */
  doneTime: Type.Union([Instant, Type.Null()]),
  createdTime: Instant,
});
export type MessageItem = Static<typeof MessageItem>;

export const UnreadCounts = Type.Object({
  message: Type.Integer({ minimum: 0 }),
  notice: Type.Integer({ minimum: 0 }),
  todo: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
});
export type UnreadCounts = Static<typeof UnreadCounts>;

export const MessagePage = Type.Object({ list: Type.Array(MessageItem), total: Type.Integer({ minimum: 0 }), unread: UnreadCounts });
export type MessagePage = Static<typeof MessagePage>;

/** POST /admin/message/read: the caller's own ids only; any other id refuses the whole call. */
export const MessageReadBody = IdsBody;
export type MessageReadBody = Static<typeof MessageReadBody>;
export const MessageReadResult = Type.Object({ marked: Type.Integer({ minimum: 0 }), unread: UnreadCounts });
export type MessageReadResult = Static<typeof MessageReadResult>;
