/**
 * Runs `pick` (one bounded delete, answering how many rows it removed) until it removes none or
 * `signal` aborts; answers the total. Every retention sweep goes batch by batch this way, so no
 * transaction holds its locks for long (modules/jobs/retention.ts, decision 0074's rate limits).
 */
export async function deleteInBatches(pick: () => Promise<number>, signal: AbortSignal | undefined): Promise<number> {
  let total = 0;
  while (signal?.aborted !== true) {
    const n = await pick();
    total += n;
    if (n === 0) break;
  }
  return total;
}
