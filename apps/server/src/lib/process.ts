/**
 * The process's last line of defence: an error nobody caught (an `uncaughtException`, or a
 * promise rejected with nobody listening) leaves the process in an unknown state, so it is
 * logged (with the id of the request it came from, when it came from a request's tagged work:
 * lib/request-context.ts) and the process exits 1 for its supervisor to restart it, rather
 * than limping on.
 */
import { requestIdOfFailure } from './request-context.ts';

export interface FatalLog {
  fatal(details: Record<string, unknown>, message: string): void;
}

export function exitOnUnexpectedError(log: () => FatalLog): void {
  const crash = (kind: 'uncaughtException' | 'unhandledRejection', error: unknown, promise?: Promise<unknown>) => {
    const reqId = requestIdOfFailure(error, promise);
    try {
      log().fatal({ err: error, ...(reqId === undefined ? {} : { reqId }) }, `${kind}: the process stops`);
    } finally {
      process.exit(1);
    }
  };
  process.on('uncaughtException', (error) => crash('uncaughtException', error));
  process.on('unhandledRejection', (reason, promise) => crash('unhandledRejection', reason, promise));
}
