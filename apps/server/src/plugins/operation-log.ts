import type { FastifyInstance, FastifyRequest, onResponseHookHandler, onSendHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/index.ts';
import { nowMs } from '../lib/time.ts';
import { recordOperation } from '../modules/logs/logs.service.ts';
import { DOCS_PREFIX } from './auth.ts';
import { cutBytes, PAYLOAD_MAX_BYTES } from '../lib/cut-bytes.ts';
import { viewAsNote } from '../lib/view-as-note.ts';
import { englishLog, logText, storedLog, type LoggedError, type LogText } from '../lib/log-text.ts';

/**
 * How a route appears in the operation log: its module and action, or `false` for a route
 * that changes nothing worth auditing (tracking beacons). `operatorFromBody` names the body
 * field that says who is acting when nobody is signed in (the login's attempted username).
 */
export interface LogRule {
  module: string;
  action: string;
  operatorFromBody?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    log?: LogRule | false;
  }
  interface FastifyRequest {
    /**
     * The line naming the record touched, set by the handler: an event and its parameters
     * (`logText('log.text.user.disabled', { username, id })`), told in the reader's language when
     * the log is read (decision 0097). A plain string is stored and shown as it is.
     */
    logContent: LogText | string | null;
    /** What the call did, as data for readers of the log (e.g. an import's counts); set by the handler, stored as JSON. */
    logDetails: object | null;
    /** The domain error the call answered (set by the error handler), kept so the log tells it in the reader's language. */
    logError: LoggedError | null;
    /** The answer's body status and message, read as it is sent. */
    logOutcome: { status: number; msg: string } | null;
  }
  interface FastifyInstance {
    /** Resolves when every operation-log write started so far has finished (tests, shutdown). */
    flushOperationLogs(): Promise<void>;
  }
}

const API_PREFIX = '/api/';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// ticket and recoveryCode: the sign-in's second step (decision 0091); a one-time code is useless once tried, so it is kept.
const SECRET_KEY =
  /(password|passwd|pwd|token|secret|authorization|cookie|credential|ticket|recovery[-_]?code|(access|private|api|secret)[-_]?key)/i;
export const MASK = '***';

export class UnloggedRouteError extends Error {
  constructor(method: string | string[], url: string) {
    super(
      `Route ${String(method)} ${url} changes data but declares no operation-log rule: add config.log: { module, action } (or log: false for a route that must not be recorded)`,
    );
    this.name = 'UnloggedRouteError';
  }
}

/** Replaces the value of every secret-looking key, at any depth. */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? MASK : maskSecrets(v, depth + 1);
  return out;
}

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max - 1) + '…' : text);

function payloadOf(request: FastifyRequest): Record<string, unknown> | unknown[] | null {
  const { body } = request;
  if (body !== undefined && body !== null) return typeof body === 'object' ? (body as Record<string, unknown>) : { body: String(body) };
  const merged = { ...(request.params as object | undefined), ...(request.query as object | undefined) };
  return Object.keys(merged).length > 0 ? merged : null;
}

function outcomeOf(payload: unknown, httpStatus: number): { status: number; msg: string } {
  if (typeof payload === 'string') {
    if (payload.startsWith('{"status":200,')) return { status: 200, msg: '' };
    try {
      const body = JSON.parse(payload) as { status?: unknown; msg?: unknown };
      if (typeof body.status === 'number') return { status: body.status, msg: typeof body.msg === 'string' ? body.msg : '' };
    } catch {
      // not an envelope
    }
  }
  return { status: httpStatus, msg: '' };
}

/** The line of a call whose handler set none (it failed first): the record it named, if any. */
function defaultContent(payload: ReturnType<typeof payloadOf>): LogText {
  const target =
    payload !== null && !Array.isArray(payload) ? (payload.id ?? payload.userId ?? payload.code ?? payload.username) : undefined;
  const named = typeof target === 'number' ? `#${target}` : typeof target === 'string' ? target : '';
  return named === '' ? logText('log.text.defaultNone') : logText('log.text.default', { target: named });
}

/** The row's content (English, as older readers see it) and its event and parameters. */
function lineOf(content: LogText | string, error: LoggedError | null): { content: string; event: string | null; params: string | null } {
  if (typeof content === 'string') return { content, event: null, params: null };
  return { content: englishLog(content), ...storedLog(content, error) };
}

/**
 * The operation log: every call that changes data is recorded, success or failure,
 * without the call waiting for it. Each API route that is not a plain read must say how it is
 * logged (`config.log`), or the start fails, like the access rule. The row is written after
 * the answer has gone (onResponse) and never awaited; a failed write is logged, nothing more.
 * Its hooks are the logged routes' own, so a read does no operation-log work at all.
 */
async function operationLogPlugin(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  const pending = new Set<Promise<void>>();
  app.decorateRequest('logContent', null);
  app.decorateRequest('logDetails', null);
  app.decorateRequest('logOutcome', null);
  app.decorateRequest('logError', null);
  app.decorate('flushOperationLogs', async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  });
  app.addHook('onClose', async () => app.flushOperationLogs());

  /** Reads the answer's envelope as it is sent. */
  const onSend: onSendHookHandler = (request, reply, payload, done) => {
    request.logOutcome = outcomeOf(payload, reply.statusCode);
    done(null, payload);
  };

  /** Writes the row once the answer has gone, without waiting for it. */
  const onResponseOf =
    (rule: LogRule): onResponseHookHandler =>
    (request, reply, done) => {
      try {
        const outcome = request.logOutcome ?? { status: reply.statusCode, msg: '' };
        const payload = payloadOf(request);
        const bodyOperator =
          rule.operatorFromBody !== undefined && payload !== null && !Array.isArray(payload) ? payload[rule.operatorFromBody] : undefined;
        // While a super admin views as another role, the row names the super admin and notes the view (decision 0060).
        const view = request.user?.viewAs;
        const operator = view?.by.username ?? request.user?.username ?? (typeof bodyOperator === 'string' ? bodyOperator : '');
        const note = view === undefined ? '' : viewAsNote(view);
        const line = lineOf(request.logContent ?? defaultContent(payload), outcome.status === 200 ? null : request.logError);
        const write = recordOperation(db, {
          module: rule.module,
          action: rule.action,
          content: cut(note + line.content, 512),
          event: line.event,
          params: line.params,
          operator: cut(operator, 64),
          operatorId: view?.by.id ?? request.user?.id ?? null,
          status: outcome.status === 200 ? 1 : 0,
          ip: cut(request.ip, 64),
          method: request.method,
          path: cut(request.url.split('?')[0] ?? request.url, 512),
          durationMs: Math.max(0, Math.round(reply.elapsedTime)),
          errorMsg: outcome.status === 200 ? '' : cut(outcome.msg, 512),
          userAgent: cut(request.headers['user-agent'] ?? '', 512),
          payload: payload === null ? '' : cutBytes(JSON.stringify(maskSecrets(payload)), PAYLOAD_MAX_BYTES),
          details: request.logDetails === null ? null : JSON.stringify(request.logDetails),
          createdAt: nowMs(),
        })
          .catch((err: unknown) => request.log.error({ err, module: rule.module, action: rule.action }, 'operation log not recorded'))
          .finally(() => pending.delete(write));
        pending.add(write);
      } catch (err) {
        request.log.error({ err }, 'operation log not recorded');
      }
      done();
    };

  // The hooks go on the logged routes only: a read answers without passing through them.
  app.addHook('onRoute', (route: RouteOptions) => {
    const log = route.config?.log;
    if (log === undefined) {
      const api = route.url.startsWith(API_PREFIX) && !route.url.startsWith(DOCS_PREFIX);
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (api && methods.some((m) => !READ_METHODS.has(m))) throw new UnloggedRouteError(route.method, route.url);
      return;
    }
    if (log === false) return;
    if (log.module.trim() === '' || log.action.trim() === '') {
      throw new Error(`Route ${String(route.method)} ${route.url} declares an operation-log rule without module or action`);
    }
    route.onSend = [...hooksOf(route.onSend), onSend];
    route.onResponse = [...hooksOf(route.onResponse), onResponseOf(log)];
  });
}

const hooksOf = <H>(hooks: H | H[] | undefined): H[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

export default fp(operationLogPlugin, { name: 'operation-log', dependencies: ['auth'] });
