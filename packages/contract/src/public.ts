import { Type, type Static } from 'typebox';
import { PUBLIC_LOOKUP_MAX_LENGTH } from './constants/public.ts';

/**
 * The public calls: no sign-in, rate-limited per client, cached briefly. Nothing
 * here ever carries an amount, a client shop, an inspector, a MAC address or an image.
 */

export const PublicLookupQuery = Type.Object(
  {
    /** Exact chat ID (trimmed, compared case-insensitively), at least PUBLIC_LOOKUP_MIN_LENGTH characters. */
    chatId: Type.String({ maxLength: PUBLIC_LOOKUP_MAX_LENGTH }),
  },
  { additionalProperties: false },
);
export type PublicLookupQuery = Static<typeof PublicLookupQuery>;

/** A public order as anyone may see it. */
export const PublicOrder = Type.Object({
  code: Type.String(),
  gameName: Type.String(),
  /** order_result value (0 normal, 1 cheating, 2 not passed, 3 suspicious). */
  result: Type.Integer(),
  /** The result's dictionary label and tag colour. */
  resultLabel: Type.String(),
  resultClass: Type.String(),
  /** When the check was recorded (ISO 8601). */
  checkedTime: Type.String(),
  /** The target's chat ID, masked: `wxid_a1***9f`. */
  maskedWechat: Type.String(),
});
export type PublicOrder = Static<typeof PublicOrder>;

export const PublicLookupData = Type.Object({ list: Type.Array(PublicOrder) });
export type PublicLookupData = Static<typeof PublicLookupData>;

export const PublicCodeParams = Type.Object({ code: Type.String({ maxLength: 32 }) }, { additionalProperties: false });
export type PublicCodeParams = Static<typeof PublicCodeParams>;

export const PublicCertificate = Type.Intersect([PublicOrder, Type.Object({ serviceName: Type.String() })]);
export type PublicCertificate = Static<typeof PublicCertificate>;

export const PublicLink = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  url: Type.String(),
  description: Type.String(),
  icon: Type.String(),
});
export type PublicLink = Static<typeof PublicLink>;

/** A root entry of the link store's tree and the links under it. */
export const PublicLinkGroup = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  url: Type.String(),
  description: Type.String(),
  icon: Type.String(),
  links: Type.Array(PublicLink),
});
export type PublicLinkGroup = Static<typeof PublicLinkGroup>;

export const PublicLinksData = Type.Object({ groups: Type.Array(PublicLinkGroup) });
export type PublicLinksData = Static<typeof PublicLinksData>;

export const PublicPrice = Type.Object({
  label: Type.String(),
  /** Fen. */
  price: Type.Integer(),
  remark: Type.String(),
});
export type PublicPrice = Static<typeof PublicPrice>;

/** Empty when nothing is published (the landing page then hides its price section). */
export const PublicPricesData = Type.Object({ list: Type.Array(PublicPrice) });
export type PublicPricesData = Static<typeof PublicPricesData>;

export const PublicFigures = Type.Object({
  /** Checks recorded, public and private. */
  checks: Type.Integer(),
  /** Of them, with the result "cheating". */
  cheaters: Type.Integer(),
});
export type PublicFigures = Static<typeof PublicFigures>;
