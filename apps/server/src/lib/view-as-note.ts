import { t, type Locale } from './messages.ts';

/**
 * The note an operation-log row carries when its call was made while a super admin viewed the
 * app as another role (decision 0060). Stored in one form at the head of the row's content,
 * `[view-as shop shop0001] …` (like the ledger's order remarks), and told in the reader's
 * language when the log is read.
 */
export function viewAsNote(view: { role: string; username: string | null }): string {
  return `[view-as ${view.role}${view.username === null ? '' : ` ${view.username}`}] `;
}

const NOTE = /^\[view-as (\S+)(?: (\S+))?\] /;

/** A log row's content in `locale`: the view-as note translated, the rest as stored. */
export function contentIn(locale: Locale, content: string): string {
  const match = NOTE.exec(content);
  if (match === null) return content;
  const [whole, role = '', username] = match;
  return t(locale, 'viewAs.logNote', { role, account: username === undefined ? '' : ` ${username}` }) + content.slice(whole.length);
}

/** The view-as note a stored content starts with, or '' (the rest of a told row comes from its event). */
export const viewAsPrefix = (content: string): string => NOTE.exec(content)?.[0] ?? '';
