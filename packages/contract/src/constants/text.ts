/**
 * Text lengths as the contract counts them: in characters (Unicode code points), as the
 * schemas' `maxLength` (Ajv, TypeBox) and the databases' columns count. An emoji or a CJK
 * character outside the BMP is one character, not the two UTF-16 units of `string.length`
 * (and of the browser's `maxLength` attribute).
 */

/** How many characters (code points) `text` has. */
export const charCount = (text: string): number => {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
};

/** `text`'s first `max` characters (code points): never half of a surrogate pair. */
export const cutToChars = (text: string, max: number): string => {
  if (text.length <= max) return text;
  let end = 0;
  let n = 0;
  for (const char of text) {
    if (n === max) break;
    end += char.length;
    n += 1;
  }
  return text.slice(0, end);
};
