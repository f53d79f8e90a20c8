/** Instants are epoch milliseconds everywhere in the server and the database. */
export const nowMs = (): number => Date.now();

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Epoch milliseconds -> ISO 8601 for the wire. */
export const toIso = (ms: number): string => new Date(ms).toISOString();
export const toIsoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms));
