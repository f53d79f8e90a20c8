import { catalogue, t, type Locale, type MessageKey, type MessageParams } from './messages.ts';
import { parseParams, tellParams, noLabels, type LabelOf } from './told.ts';

/**
 * An operation-log line as an event and its parameters (decision 0097). The route that did the
 * work says what happened (`request.logContent = logText('log.text.order.imported', {…})`); the row
 * keeps the event key and the parameters (codes, values, counts, names: never words), and the
 * line is told when the log is read, in the reader's language. `parts` are clauses that follow
 * the main text when they apply (sessions ended, valid rows kept, an order's changes).
 */
export interface LogText {
  key: LogKey;
  params: MessageParams;
  parts: readonly { key: LogKey; params: MessageParams }[];
}

/** Catalogue keys of log lines. */
export type LogKey = Extract<MessageKey, `log.text.${string}`>;

/** A clause of a log line. */
export interface LogPart {
  key: LogKey;
  params?: MessageParams;
}
type Part = LogPart | false | null | undefined;

/** A log line; parts that are false/null/undefined are left out (`cond && { key, params }`). */
export const logText = (key: LogKey, params: MessageParams = {}, ...parts: Part[]): LogText => ({
  key,
  params,
  parts: parts.filter((p): p is LogPart => Boolean(p)).map((p) => ({ key: p.key, params: p.params ?? {} })),
});

const PARTS = '_parts';
const ERROR = '_error';

/** The domain error a failed call answered, as its catalogue key and parameters (told when read, like the line). */
export interface LoggedError {
  key: MessageKey;
  params: MessageParams;
}

const SEPARATOR: Record<Locale, string> = { 'en-US': ', ', 'zh-CN': '，' };

/** The row's `event` and `params` columns. */
export const storedLog = (text: LogText, error: LoggedError | null = null): { event: string; params: string } => ({
  event: text.key,
  params: JSON.stringify({
    ...text.params,
    ...(text.parts.length === 0 ? {} : { [PARTS]: text.parts.map((p) => [p.key, p.params]) }),
    ...(error === null ? {} : { [ERROR]: [error.key, error.params] }),
  }),
});

/** A failed call's error message in the reader's language; undefined when the row kept none (then the stored message is shown). */
export function tellLogError(locale: Locale, paramsJson: string | null): string | undefined {
  const error = (parseParams(paramsJson) as Record<string, unknown>)[ERROR];
  if (!Array.isArray(error) || typeof error[0] !== 'string' || !(error[0] in catalogue['en-US'])) return undefined;
  const params: unknown = error[1];
  return t(locale, error[0] as MessageKey, typeof params === 'object' && params !== null ? (params as MessageParams) : {});
}

const KNOWN = (key: string): key is LogKey => key.startsWith('log.text.') && key in catalogue['en-US'];

/** A log line as the reader reads it; undefined for an event this build does not know (then the stored text is shown). */
export function tellLog(locale: Locale, event: string, paramsJson: string | null, labelOf: LabelOf = noLabels): string | undefined {
  if (!KNOWN(event)) return undefined;
  const { [PARTS]: rawParts, [ERROR]: _error, ...params } = parseParams(paramsJson) as Record<string, unknown>;
  const main = t(locale, event, tellParams(locale, params as MessageParams, labelOf));
  const parts = Array.isArray(rawParts) ? rawParts : [];
  const clauses = parts
    .filter((p): p is [string, MessageParams] => Array.isArray(p) && typeof p[0] === 'string' && KNOWN(p[0]))
    .map(([key, ps]) => t(locale, key as LogKey, tellParams(locale, typeof ps === 'object' && ps !== null ? ps : {}, labelOf)));
  return [main, ...clauses].join(SEPARATOR[locale]);
}

/** The English line stored in `content` beside the event (what older readers and the log's payload search see). */
export const englishLog = (text: LogText): string => tellLog('en-US', storedLog(text).event, storedLog(text).params) ?? text.key;
