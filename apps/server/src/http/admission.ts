/**
 * Requests start in slices of the event loop (decision 0099), so that a busy server still
 * accepts new connections.
 *
 * Node ≥ 20 (libuv ≥ 1.45, libuv PR #3696) accepts ONE pending connection per turn of the event
 * loop. A turn reads every socket that has data and, on SQLite (whose queries run synchronously
 * on this thread), runs each of those requests' handlers to the end: with 100 busy connections a
 * turn takes 100 handlers' CPU, half a second to seconds on a loaded machine. A connection opened
 * meanwhile sits in the kernel's accept queue for as many turns as there are connections ahead of
 * it; the 100th waited over 10 s in the 200-connection run of decision 0099, and its client timed out
 * although the server, once it read the request, answered in 3 ms.
 *
 * Here each request waits for the loop's check phase (setImmediate) before it is handled, and a
 * check phase starts requests only until it has spent SLICE_MS; the rest wait, in arrival order,
 * for the next turn, whose poll phase first accepts a connection and reads the sockets. A turn
 * then lasts about one slice however many connections are busy, so pending connections are
 * accepted at a steady rate and join the queue of requests at its end: every client waits its
 * turn, none is starved. Requests whose handlers wait on a database across the network
 * (PostgreSQL, MySQL) only have their start ordered; their waits overlap as before.
 */
import type { onRequestHookHandler } from 'fastify';

/** How much of a turn of the event loop may go to starting requests (ms). */
export const SLICE_MS = 10;

let sliceStart = 0;
/** A marker immediate is queued: it runs first in the next check phase and ends the current slice. */
let sliceOpen = false;

function admit(resolve: () => void): void {
  const now = performance.now();
  if (!sliceOpen) {
    // The first request of this check phase: a new slice. Its marker, queued now, runs before any
    // request queued after it, i.e. at the start of the next check phase.
    sliceOpen = true;
    sliceStart = now;
    setImmediate(() => (sliceOpen = false));
  }
  // The first request of a slice always starts; later ones while the slice has time left. A
  // request resolved here runs its synchronous work before the next immediate is called.
  if (now - sliceStart < SLICE_MS) resolve();
  else setImmediate(admit, resolve);
}

/** Fastify onRequest hook: waits for the request's turn (see above). */
export const admitInTurn: onRequestHookHandler = (_request, _reply, done) => {
  setImmediate(admit, done);
};
