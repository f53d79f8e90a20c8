import { Type, type Static } from 'typebox';
import { ANNOUNCEMENT_RAW_MAX } from './constants/workplace.ts';
import { Flag, Id, Instant } from './common.ts';

/** An announcement (docs/product.md "Messages": notices). `content` is sanitized HTML. */
export const AnnouncementItem = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  /** A value of the dictionary `announcement_type` (notice / activity / news). */
  type: Type.String(),
  content: Type.String(),
  pinned: Flag,
  publishedTime: Instant,
  authorId: Type.Union([Type.Integer(), Type.Null()]),
  authorName: Type.String(),
  createdTime: Instant,
  updatedTime: Instant,
});
export type AnnouncementItem = Static<typeof AnnouncementItem>;

/** GET /admin/announcement/list: pinned first, then newest. */
export const AnnouncementListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    type: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);
export type AnnouncementListQuery = Static<typeof AnnouncementListQuery>;

/** POST /admin/announcement/add. Limits on the title and the sanitized content are checked by the server with their own messages. */
export const AnnouncementAddBody = Type.Object(
  {
    title: Type.String({ maxLength: 1000 }),
    type: Type.String({ maxLength: 32 }),
    content: Type.String({ maxLength: ANNOUNCEMENT_RAW_MAX }),
    pinned: Type.Optional(Flag),
  },
  { additionalProperties: false },
);
export type AnnouncementAddBody = Static<typeof AnnouncementAddBody>;

export const AnnouncementDeleteQuery = Type.Object({ id: Id }, { additionalProperties: false });
export type AnnouncementDeleteQuery = Static<typeof AnnouncementDeleteQuery>;

/** GET /admin/announcement/detail: one announcement, for every signed-in role (a notice opens it). */
export const AnnouncementDetailQuery = Type.Object({ id: Id }, { additionalProperties: false });
export type AnnouncementDetailQuery = Static<typeof AnnouncementDetailQuery>;
