/**
 * REQUEST_TIMEOUT_SECONDS promises that a request, headers and body, arrives whole within it.
 * Node's own requestTimeout keeps that promise for the headers, but not for a body Fastify has
 * started to handle: a client sending its body a byte every half second held its connection for
 * good (reliability/slow-clients.test.ts, slowloris). This hook keeps it for the body: a request
 * whose body has not arrived by the deadline is answered 408 (when nothing was answered yet) and
 * its connection closed, as Node does for slow headers.
 */
import type { onRequestHookHandler } from 'fastify';

/** How often Node checks the request deadlines of open connections (http.Server's connectionsCheckingInterval). */
export const CONNECTIONS_CHECK_MS = 1000;

const TIMEOUT_ANSWER = '{"status":408,"msg":"Request Timeout","data":null}';

export function bodyDeadline(requestTimeoutMs: number): onRequestHookHandler {
  return (request, reply, done) => {
    const raw = request.raw;
    if (requestTimeoutMs > 0 && !raw.complete) {
      const timer = setTimeout(() => {
        if (raw.complete || raw.socket.destroyed) return;
        if (!reply.raw.headersSent && raw.socket.writable) {
          raw.socket.write(
            `HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${TIMEOUT_ANSWER.length}\r\n\r\n${TIMEOUT_ANSWER}`,
          );
        }
        raw.socket.destroy();
      }, requestTimeoutMs);
      timer.unref();
      const clear = () => clearTimeout(timer);
      raw.once('end', clear);
      raw.once('close', clear);
      reply.raw.once('finish', clear);
    }
    done();
  };
}
