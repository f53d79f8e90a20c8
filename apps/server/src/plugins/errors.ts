import type { FieldError } from '@clearplay/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDbUnavailable } from '../db/errors.ts';
import { AppError, FieldAppError, httpStatusFor } from '../lib/errors.ts';
import { localeOf } from '../http/route-context.ts';
import { t, type Locale, type MessageKey } from '../lib/messages.ts';

export const isApiPath = (url: string): boolean => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** Ajv's error object, as much of it as we read. */
interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const VALIDATION_KEYS: Record<string, MessageKey> = {
  required: 'validation.required',
  minLength: 'validation.minLength',
  maxLength: 'validation.maxLength',
  minimum: 'validation.minimum',
  maximum: 'validation.maximum',
  exclusiveMinimum: 'validation.minimum',
  exclusiveMaximum: 'validation.maximum',
  type: 'validation.type',
  finite: 'validation.finite',
  nul: 'validation.nul',
  enum: 'validation.enum',
  const: 'validation.const',
  format: 'validation.format',
  pattern: 'validation.pattern',
  minItems: 'validation.minItems',
  maxItems: 'validation.maxItems',
  additionalProperties: 'validation.additionalProperties',
};

/** `/items/0/name` -> `items[0].name`; a missing property names itself. */
function fieldOf(error: AjvError, context: string): string {
  const parts = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    parts.push(error.params.missingProperty);
  }
  if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
    parts.push(error.params.additionalProperty);
  }
  const field = parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
  return field || context;
}

function fieldErrors(errors: readonly AjvError[], context: string, locale: Locale): FieldError[] {
  return errors.map((error) => {
    const p = error.params;
    const key: MessageKey =
      error.keyword === 'minLength' && p.limit === 1 ? 'validation.empty' : (VALIDATION_KEYS[error.keyword] ?? 'validation.invalid');
    const message = t(locale, key, {
      limit: String(p.limit ?? ''),
      type: String(p.type ?? ''),
      values: Array.isArray(p.allowedValues) ? p.allowedValues.join(', ') : '',
      value: String(p.allowedValue ?? ''),
      format: String(p.format ?? ''),
    });
    return { field: fieldOf(error, context), message };
  });
}

const CLIENT_ERROR_KEYS: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'errors.invalidJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'errors.invalidJson',
  FST_ERR_CTP_BODY_TOO_LARGE: 'errors.payloadTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'errors.unsupportedMediaType',
};

/** Retry-After of a 503 "briefly unavailable": about as long as a restart or failover of the database takes. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

function send(reply: FastifyReply, status: number, msg: string, data: unknown): FastifyReply {
  return reply.code(httpStatusFor(status)).send({ status, msg, data });
}

/**
 * What Fastify answers itself, before any route or error handler (its `frameworkErrors` option):
 * a URL whose percent-encoding is not UTF-8 (`/api/x/%FF`, FST_ERR_BAD_URL) or a failed
 * constraint. Under /api the envelope, under the upload host's prefix the provider's
 * `{"error"}`, elsewhere plain text; never Fastify's own `{code, message}` body.
 */
export function frameworkError(uploadPrefix: string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const statusCode = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    request.log.info({ err: error }, 'refused before routing');
    const path = request.raw.url ?? '';
    if (isApiPath(path)) {
      void send(reply, statusCode, t(localeOf(request), error.code === 'FST_ERR_BAD_URL' ? 'errors.badUrl' : 'errors.badRequest'), null);
      return;
    }
    if (path === uploadPrefix || path.startsWith(`${uploadPrefix}/`) || path.startsWith(`${uploadPrefix}?`)) {
      void reply
        .code(statusCode)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ error: 'invalid URL' }));
      return;
    }
    void reply.code(statusCode).type('text/plain; charset=utf-8').send('Bad request');
  };
}

/**
 * One error handler for the whole app: every failure becomes the spec's envelope. Domain
 * errors keep their status; validation errors name the field; 5xx are masked and logged
 * with the request id. No stack trace ever reaches a response. A database that is down,
 * frozen or past a budget (db/errors.ts isDbUnavailable) answers 503 "briefly unavailable"
 * with Retry-After, never 500 (decision 0083).
 */
async function errorsPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((raised: FastifyError | AppError, request, reply) => {
    const locale = localeOf(request);
    let error = raised;
    if (!(error instanceof AppError) && isDbUnavailable(error)) {
      request.log.warn({ err: error, reqId: request.id }, 'database unavailable');
      error = new AppError(503, 'errors.unavailable', {}, { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
    }
    if (error instanceof AppError) {
      // The operation log keeps the error as key and parameters, told in its reader's language (decision 0097).
      request.logError = { key: error.key, params: error.params };
      if ((error.status === 429 || error.status === 503) && error.data && typeof error.data.retryAfterSeconds === 'number') {
        void reply.header('retry-after', String(error.data.retryAfterSeconds));
      }
      const msg = t(locale, error.key, error.params);
      if (error instanceof FieldAppError) return send(reply, error.status, msg, { errors: [{ field: error.field, message: msg }] });
      return send(reply, error.status, msg, error.data);
    }
    if (error.validation) {
      const errors = fieldErrors(error.validation as AjvError[], error.validationContext ?? 'body', locale);
      const first = errors[0] ?? { field: error.validationContext ?? 'body', message: t(locale, 'validation.invalid') };
      return send(reply, 400, t(locale, 'errors.validation', first), { errors });
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 400 && statusCode < 500) {
      const key = CLIENT_ERROR_KEYS[error.code] ?? (statusCode === 400 ? 'errors.badRequest' : 'errors.request');
      request.log.info({ err: error }, 'client error');
      return send(reply, statusCode, t(locale, key), null);
    }
    request.log.error({ err: error, reqId: request.id }, 'request failed');
    return send(reply, statusCode >= 500 && statusCode <= 599 ? statusCode : 500, t(locale, 'errors.internal'), null);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    if (isApiPath(path)) {
      return send(reply, 404, t(localeOf(request), 'errors.notFound', { method: request.method, path }), null);
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
}

export default fp(errorsPlugin, { name: 'errors' });
