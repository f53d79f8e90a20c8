/** Instants are epoch milliseconds everywhere in the server and the database. */
export const nowMs = (): number => Date.now();

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** The last instant toIso wrote, and its text: a call answering the same instant as the last reuses it. */
let lastMs = Number.NaN;
let lastIso = '';

/**
 * Epoch milliseconds -> ISO 8601 for the wire. Formatting a date costs about as much as hashing
 * a token, and the calls that repeat it (a session's end, answered on every session check) ask
 * for the instant asked last: that one text is kept. NaN never equals the kept instant, so an
 * invalid time still throws as Date does.
 */
export const toIso = (ms: number): string => {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
};
export const toIsoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms));
