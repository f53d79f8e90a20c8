/**
 * The public pages (decisions 0048–0051): limits and dictionary codes the server
 * and the web app share.
 */

/** The look-up needs at least this many characters of a chat ID (WeChat IDs have 6–20). */
export const PUBLIC_LOOKUP_MIN_LENGTH = 6;
export const PUBLIC_LOOKUP_MAX_LENGTH = 64;
/** At most this many public orders per look-up, newest first. */
export const PUBLIC_LOOKUP_LIMIT = 20;
/** A verification code: 8 of the letters and digits of modules/orders/codes.ts (no 0/O, 1/I/L). */
export const VERIFY_CODE_PATTERN = '^[A-HJKMNP-Z2-9]{8}$';

/** The dictionary of the link store: label = title, value = http(s) URL, remark = description, cssClass = icon. */
export const LINKSTORE_DICT = 'linkstore';
/** The dictionary of published prices: label = what is priced (a result), value = price in fen, remark = note. */
export const PUBLIC_PRICE_DICT = 'public_price';

/** Icons the link store can show (cssClass of a link); anything else shows the default link icon. */
export const LINK_ICONS = ['icon-game', 'icon-tool', 'icon-doc', 'icon-shop', 'icon-community', 'icon-video', 'icon-link'] as const;

/** Per client and per minute. */
export const PUBLIC_RATE_LIMITS = { lookup: 10, verify: 30, read: 60 } as const;
