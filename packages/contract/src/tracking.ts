import { Type, type Static } from 'typebox';

/** Spec §3 "Page-view record", sent fire-and-forget on each route change. */
export const PageViewBody = Type.Object(
  {
    /** An in-app path: starts with `/`. */
    path: Type.String({ minLength: 1, maxLength: 512, pattern: '^/' }),
    userAgent: Type.Optional(Type.String({ maxLength: 512 })),
    referrer: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type PageViewBody = Static<typeof PageViewBody>;

/** Spec §3 "Event record". `data` is any JSON value, kept up to 4 KB. */
export const EventBody = Type.Object(
  {
    event: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' }),
    data: Type.Optional(Type.Unknown()),
    timestamp: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type EventBody = Static<typeof EventBody>;

/** GET /admin/user/session: the session is live, and when it ends. */
export const SessionData = Type.Object({ expiresAt: Type.String() });
export type SessionData = Static<typeof SessionData>;
