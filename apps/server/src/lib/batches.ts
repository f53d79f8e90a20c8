/**
 * Runs `pick` (one bounded delete, answering how many rows it removed) until it removes none or
 * `signal` aborts; answers the total. Every retention sweep goes batch by batch this way, so no
 * transaction holds its locks for long: each module's `remove…` that modules/jobs/retention.ts
 * calls (decisions 0074, 0110).
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
