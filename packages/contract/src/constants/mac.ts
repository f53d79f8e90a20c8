/**
 * MAC addresses in one normal form (shared: the server stores and filters by it, the order
 * form checks the spelling before sending), `AA-BB-CC-DD-EE-FF` (upper case, dashes: what Windows'
 * `ipconfig /all` shows the inspectors). Accepted spellings: `AA-BB-CC-DD-EE-FF`,
 * `aa:bb:cc:dd:ee:ff`, `aabbccddeeff`, `aabb.ccdd.eeff`, any case, surrounding spaces ignored.
 */
const SPELLINGS = [
  /^[0-9a-f]{2}(-[0-9a-f]{2}){5}$/i,
  /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i,
  /^[0-9a-f]{12}$/i,
  /^[0-9a-f]{4}(\.[0-9a-f]{4}){2}$/i,
];

const group = (hex: string): string => (hex.toUpperCase().match(/.{1,2}/g) ?? []).join('-');

/** The normal form, or null when the text is not a MAC address in an accepted spelling. */
export function normalizeMac(text: string): string | null {
  const trimmed = text.trim();
  if (!SPELLINGS.some((re) => re.test(trimmed))) return null;
  return group(trimmed.replace(/[^0-9a-f]/gi, ''));
}

/**
 * A list filter: the beginning of a MAC in any spelling, as the beginning of the normal form
 * (`aa:b` → `AA-B`). Null when the text holds anything but hex digits and separators.
 */
export function macFilterPrefix(text: string): string | null {
  const trimmed = text.trim();
  if (!/^[0-9a-f:.\- ]+$/i.test(trimmed)) return null;
  const hex = trimmed.replace(/[^0-9a-f]/gi, '').slice(0, 12);
  if (hex === '') return null;
  return group(hex);
}
