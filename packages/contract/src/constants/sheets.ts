/**
 * Spreadsheet cells the product writes (the order export on the server, the rejected-rows
 * report in the browser): one rule for both.
 *
 * A text cell that a spreadsheet program could run as a formula (it starts with = + - @, a
 * tab or a carriage return) gets a leading apostrophe, so the text is shown, never run
 * (CSV / formula injection).
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
