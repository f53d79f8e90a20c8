/**
 * Each request's logger, made lazily (decision 0058). Fastify gives every request a pino child
 * bound to its id (`reqId`), so every line the request writes carries the id. Making that child
 * (binding, redaction set-up, the bindings' JSON) is a measurable part of a short call, and most
 * requests never write a line at an enabled level (at `warn`, none that succeeds does). So the
 * request gets this stand-in: a line at a disabled level costs a comparison, and the first
 * line at an enabled level makes the very child Fastify would have made and writes through it.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type Level = FastifyBaseLogger['level'];
type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** pino's level numbers (the app defines no levels of its own); `silent` and unknown write nothing. */
const RANKS: Readonly<Record<string, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
const rank = (level: string): number => RANKS[level] ?? Infinity;

class RequestLog implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  #level: Level | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  #made(): FastifyBaseLogger {
    if (this.#child === undefined) {
      this.#child = this.parent.child(this.bindings, this.options);
      if (this.#level !== undefined) this.#child.level = this.#level;
    }
    return this.#child;
  }

  get level(): Level {
    return this.#child?.level ?? this.#level ?? this.options.level ?? this.parent.level;
  }

  set level(level: Level) {
    this.#level = level;
    if (this.#child !== undefined) this.#child.level = level;
  }

  #write(method: Method, args: unknown[]): void {
    if (rank(method) < rank(this.level)) return;
    (this.#made()[method] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: the request's lazy logger. */
export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new RequestLog(logger, bindings, options);
