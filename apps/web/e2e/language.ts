// Text in the other language (the first-hour net, decision 0095): on a page whose
// <html lang> is English, a run of Chinese characters; on a Chinese page, a run of two or more
// English words. Either passes when it is user data: what the journey's database holds
// (nicknames, chat names, descriptions, remarks, user names), except the dictionaries' Chinese
// labels that have an English one, which an English reader must see in English. Regions that
// show stored text on purpose carry `data-user-data`; an element with its own `lang` (a
// language's name in the language picker) is in that language on purpose.
import type { Page } from '@playwright/test';
import type Database from 'better-sqlite3';

export const CJK = /[\u4e00-\u9fff]+/g;
/** Two or more English words in a row ("login superadmin", "Order import"). */
const ENGLISH_WORDS = /[A-Za-z]{2,}(?:[ '’-]+[A-Za-z]{2,})+/g;

/**
 * Columns holding text the server wrote for people to read, which are not user data: shown in
 * the other language, they are the defect, not the data.
 */
const SERVER_TEXT: ReadonlySet<string> = new Set<string>([
  // The English text of a log line, kept beside its event and parameters (decision 0097): the
  // screen tells the line from those, in the reader's language.
  'operation_logs.content',
]);

export interface UserData {
  /** Every stored string, joined (a run on screen passes when it is inside one of them). */
  stored: string;
  /** The letters-only words of user names, nicknames and role codes, lower-cased ("shop", "firsthourzh" of firsthourzh1440). */
  names: Set<string>;
  /** Dictionary labels (and type names) in Chinese that have English text: never on an English screen. */
  forbidden: Set<string>;
}

/** What the database holds as user data (see the file's comment). */
export function userDataOf(db: Database.Database): UserData {
  const values: string[] = [];
  const forbidden = new Set<string>();
  const tables = db.prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`).all() as { name: string }[];
  for (const { name } of tables) {
    for (const row of db.prepare(`select * from "${name}"`).all() as Record<string, unknown>[]) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value !== 'string' || SERVER_TEXT.has(`${name}.${column}`)) continue;
        const translated =
          (name === 'dict_data' && column === 'label' && row.label_en !== '') ||
          (name === 'dict_types' && column === 'name' && row.name_en !== '');
        if (translated) for (const run of value.match(CJK) ?? []) forbidden.add(run);
        else values.push(value);
      }
    }
  }
  const names = new Set<string>();
  const people = db.prepare(`select username as a, nickname as b from users union all select name, name from roles`).all() as {
    a: string;
    b: string;
  }[];
  for (const { a, b } of people) for (const word of `${a} ${b}`.toLowerCase().split(/[^a-z]+/)) if (word) names.add(word);
  return { stored: values.join('\u0000'), forbidden, names };
}

/** The page's language and its visible text nodes outside `[data-user-data]` and elements with a `lang` of their own. */
export function visibleText(page: Page): Promise<{ lang: string; texts: string[] }> {
  return page.evaluate(() => {
    const lang = document.documentElement.lang || 'zh-CN';
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').trim();
      const el = node.parentElement;
      if (!el || !text || !/[A-Za-z\u4e00-\u9fff]/.test(text)) continue;
      if (el.closest('[data-user-data], script, style, noscript, template')) continue;
      const own = el.closest('[lang]');
      if (own && own !== document.documentElement && own.getAttribute('lang') !== lang) continue;
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      texts.push(text);
    }
    return { lang, texts };
  });
}

/**
 * What of `texts` is in the other language than `lang` and not user data, as `text (run)`;
 * `seen.count` counts the runs that passed as user data (a check that read nothing proves nothing).
 */
export function otherLanguage(lang: string, texts: readonly string[], data: UserData, seen = { count: 0 }): string[] {
  const english = lang.startsWith('en');
  const bad: string[] = [];
  for (const text of texts) {
    for (const run of text.match(english ? CJK : ENGLISH_WORDS) ?? []) {
      // Capitals alone are codes, not words: a MAC address (AA-BB-CC), a game's short name.
      if (!english && !/[a-z]/.test(run)) continue;
      // Names side by side: a role code and a user name ("以 shop firsthourzh1440 身份查看").
      if (
        !english &&
        run
          .toLowerCase()
          .split(/[^a-z]+/)
          .every((word) => data.names.has(word))
      ) {
        seen.count += 1;
        continue;
      }
      // Stored as it shows, around the run (a link titled "E2E 检测工具" beside its group "检测工具").
      const inStoredText = text !== run && data.stored.includes(text);
      if (inStoredText || (data.stored.includes(run) && !data.forbidden.has(run))) seen.count += 1;
      else bad.push(`${text.slice(0, 80)} (${run})`);
    }
  }
  return bad;
}
