// The browser-test harness (decision 0095): each journey file gets a real server process on a
// temporary SQLite database serving the built web app; @playwright/test drives Debian's Chromium
// (playwright.config.ts). Journeys import `test` and `expect` from here: `test` adds the checks
// every journey gets after each test (Content-Security-Policy violations).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import pixelmatch from 'pixelmatch';
import { test as base, expect, type Browser, type BrowserContext, type Locator, type Page, type Request } from '@playwright/test';
import { PNG } from 'pngjs';
import { canAccess, isScreen, routeTable, type RouteDef } from '@clearplay/contract/constants';
import { otherLanguage, userDataOf, visibleText, type UserData } from './language.ts';
import { sqliteDatabase } from './sqlite.ts';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const screenshotDir = join(repoRoot, 'docs', 'screenshots');
export const ADMIN_PASSWORD = 'Admin#2026';
export const DEMO_PASSWORD = 'demo123456';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });

export interface RunningServer {
  url: string;
  dataDir: string;
  /** The server's SQLite database, for arranging what only time would do (expiring a session). */
  db: () => Database.Database;
  /** Ends the server for good and removes its data directory. */
  stop: () => Promise<void>;
  /**
   * Ends the server process but keeps its data directory (database, uploaded files, unfinished
   * chunked uploads), so `restart` can bring the same server back: a server outage mid-way.
   */
  halt: () => Promise<void>;
  /** Starts the server again on the same port with the same data directory and environment. */
  restart: () => Promise<void>;
  /** True while the server process runs. */
  running: () => boolean;
  output: () => string;
}

/**
 * The server as `npm start` runs it: the esbuild bundle (scripts/build-server.mjs), which the
 * journeys' global setup builds afresh from the sources (e2e/global-setup.ts), so a journey never
 * runs yesterday's server. Starting it costs a tenth of compiling the sources with tsx.
 */
export const SERVER_BUNDLE = join(repoRoot, 'apps', 'server', 'dist', 'server.js');

/** One server process on `port` over `dataDir`; resolves once /api/health answers. */
export async function spawnServer(
  port: number,
  dataDir: string,
  env: Record<string, string>,
  log: (text: string) => void,
): Promise<ChildProcess> {
  let out = '';
  if (!existsSync(SERVER_BUNDLE)) throw new Error(`${SERVER_BUNDLE} is missing: the journeys' global setup builds it`);
  const child: ChildProcess = spawn(process.execPath, [SERVER_BUNDLE], {
    cwd: join(repoRoot, 'apps', 'server'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      INIT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      DEMO: '1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (d: Buffer) => {
    out += d.toString();
    log(d.toString());
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return child;
}

/** SIGTERM (the server's graceful shutdown), SIGKILL if it has not exited after 10 s. */
export async function endProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dist = join(repoRoot, 'apps', 'web', 'dist', 'index.html');
  if (!existsSync(dist)) throw new Error('apps/web/dist is missing: run `npm run build` first');
  const dataDir = mkdtempSync(join(tmpdir(), 'clearplay-e2e-'));
  const port = await freePort();
  let out = '';
  const log = (text: string) => (out += text);
  let child: ChildProcess | null = await spawnServer(port, dataDir, env, log);
  let handle: Database.Database | undefined;
  const closeDb = () => {
    handle?.close();
    handle = undefined;
  };
  const halt = async () => {
    closeDb();
    if (child) await endProcess(child);
    child = null;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    output: () => out,
    db: () => (handle ??= new (sqliteDatabase())(join(dataDir, 'clearplay.db'))),
    running: () => child !== null && child.exitCode === null && child.signalCode === null,
    halt,
    restart: async () => {
      await halt();
      log('\n── restart ──\n');
      child = await spawnServer(port, dataDir, env, log);
    },
    stop: async () => {
      await halt();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function newContext(
  browser: Browser,
  baseURL: string,
  locale = 'zh-CN',
  storageState?: Exclude<Parameters<Browser['newContext']>[0], undefined>['storageState'],
): Promise<BrowserContext> {
  // Reduced motion: the app then turns antd's animations off, so a click never lands on a
  // dialog that is still zooming in or out (a source of flaky journeys on a loaded machine).
  const context = await browser.newContext({
    baseURL,
    locale,
    viewport: { width: 1440, height: 900 },
    reducedMotion: 'reduce',
    storageState,
  });
  watch(context, baseURL);
  lookBeforeClosing(context, baseURL);
  // Every Content-Security-Policy violation on any screen is collected and fails the test.
  await context.exposeBinding('__cspViolation', ({ page }, text: string) => void cspViolations.push(`${page.url()}: ${text}`));
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __cspViolation: (text: string) => Promise<void> }).__cspViolation;
      void report(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    }),
  );
  // Every error toast, error notification and error dialog a screen shows is a problem.
  await context.exposeBinding('__errorShown', ({ page }, text: string) => problem(page.url(), `error shown: ${text}`));
  await context.addInitScript((selector) => {
    const seen = new WeakSet<Element>();
    const report = (el: Element) =>
      void (window as unknown as { __errorShown: (text: string) => Promise<void> }).__errorShown(
        (el.textContent ?? '').trim() || '(no text)',
      );
    new MutationObserver(() => {
      for (const el of document.querySelectorAll(selector)) {
        if (seen.has(el)) continue;
        seen.add(el);
        // The text is set in the same render or the next one.
        setTimeout(() => report(el), 50);
      }
    }).observe(document, { childList: true, subtree: true });
  }, ERROR_SHOWN);
  return context;
}

/** What antd shows for an error: a red message, an error notification, an error dialog. */
const ERROR_SHOWN = '.ant-message-custom-content.ant-message-error, .ant-notification-notice-error, .ant-modal-confirm-error';

/**
 * The first-hour net: what a person would see go wrong, or what the browser logs as an error,
 * on any page of a journey's contexts, recorded as `<path>: <problem>` and failing the test it
 * happened in unless the test said it provokes it (`allowProblems`).
 */
const problems: string[] = [];
let allowed: RegExp[] = [];

function problem(url: string, text: string): void {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // about:blank and the like stay as they are
  }
  problems.push(`${path}: ${text}`);
}

/** The page that made `request`; undefined for a service worker's request, which has no frame. */
function pageOf(request: Request): Page | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined;
  }
}

/** Each page's requests still waiting for an answer, and when that set last changed (for `settle`). */
const traffic = new WeakMap<Page, { open: Set<Request>; changed: number }>();

/**
 * Listens on `context` for each page's requests in flight (`settle`), console errors, uncaught
 * page errors and HTTP answers ≥ 400 from the app's own origin.
 */
function watch(context: BrowserContext, baseURL: string): void {
  context.on('request', (request) => {
    const page = pageOf(request);
    if (!page) return;
    const seen = traffic.get(page) ?? { open: new Set<Request>(), changed: 0 };
    seen.open.add(request);
    seen.changed = Date.now();
    traffic.set(page, seen);
  });
  const done = (request: Request) => {
    const page = pageOf(request);
    const seen = page && traffic.get(page);
    if (seen?.open.delete(request)) seen.changed = Date.now();
  };
  context.on('requestfinished', done);
  context.on('requestfailed', done);
  context.on('console', (message) => {
    if (message.type() !== 'error') return;
    // A failed request is reported (with its method and path) by the response check below.
    if (message.text().startsWith('Failed to load resource')) return;
    problem(message.page()?.url() ?? '', `console error: ${message.text()}`);
  });
  context.on('weberror', (error) => problem(error.page()?.url() ?? '', `page error: ${error.error().message}`));
  context.on('response', (response) => {
    if (response.status() < 400 || !response.url().startsWith(baseURL)) return;
    problem(
      pageOf(response.request())?.url() ?? '',
      `HTTP ${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`,
    );
  });
}

/**
 * Declares that the running test provokes these problems on purpose (a wrong password, a
 * refused call, a field left empty): each pattern is matched against the problem's text, e.g.
 * `allowProblems(/HTTP 401 POST \/api\/admin\/user\/login/, /error shown: 密码错误/)`.
 */
export function allowProblems(...patterns: RegExp[]): void {
  allowed.push(...patterns);
}

/**
 * Waits until `page` is still: none of its requests waiting for an answer for `quietMs` (a
 * screen's calls start while its code loads, so one quiet moment is not enough), and no
 * spinner or loading skeleton on screen. Playwright's `networkidle` asks for 500 ms of silence
 * after every request: on a sweep of every screen that wait was a third of the time.
 */
export async function settle(page: Page, quietMs = 150): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const seen = traffic.get(page);
    const quiet = !seen || (seen.open.size === 0 && Date.now() - seen.changed >= quietMs);
    if (quiet) break;
    if (Date.now() > deadline) {
      const open = [...(seen?.open ?? [])].map((r) => `${r.method()} ${r.url()}`);
      throw new Error(`the page did not settle within 15 s; still waiting for: ${open.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Only what shows: screens left inside the app stay mounted, hidden behind their tabs, and one
  // that refreshes there (the monitor) may spin while the shown screen has long settled.
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active').filter({ visible: true })).toHaveCount(0, { timeout: 15_000 });
}

const cspViolations: string[] = [];

/** The contexts of the running test that are still open, with the app's origin. */
const openContexts = new Map<BrowserContext, string>();
/** The running journey file's server (set by `useApp`): its database tells user data from interface text. */
let journeyServer: RunningServer | undefined;
let userDataCache: { version: string; data: UserData } | undefined;

function journeyUserData(): UserData | undefined {
  if (!journeyServer?.running()) return undefined;
  const db = journeyServer.db();
  // data_version moves when the server commits, total_changes when the journey writes itself.
  const version = `${String(db.pragma('data_version', { simple: true }))}:${String((db.prepare('select total_changes() as n').get() as { n: number }).n)}`;
  if (userDataCache?.version !== version) userDataCache = { version, data: userDataOf(db) };
  return userDataCache.data;
}

/**
 * What a person would see wrong on `page` as it stands: a clipped table header or cell, and
 * text in the other language outside user data (e2e/language.ts). Given 5 s to settle (a table
 * resizing, a language switch re-rendering), then reported.
 */
async function screenProblems(page: Page): Promise<string[]> {
  const deadline = Date.now() + 5_000;
  let found: string[];
  while (true) {
    try {
      const path = new URL(page.url()).pathname;
      const { lang, texts } = await visibleText(page);
      const data = texts.length ? journeyUserData() : undefined;
      found = [
        ...(await clippedCells(page, path)).map((text) => `clipped: ${text}`),
        ...(await chartsCutOnScreen(page, path)).map((text) => `clipped: ${text}`),
        ...(data ? otherLanguage(lang, texts, data).map((text) => `${path}: not in ${lang}: ${text}`) : []),
      ];
    } catch (error) {
      // A page navigating or closing while it was read: read again.
      found = [`could not be read: ${String(error).split('\n')[0]}`];
    }
    if (found.length === 0 || Date.now() > deadline || page.isClosed()) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Notes what is wrong on the screen `page` shows as the test leaves it (`screenProblems`). */
async function leaveScreen(page: Page): Promise<void> {
  const here = page.url();
  for (const text of await screenProblems(page)) problem(here, text);
}

/** Checks the app's open pages of `context` with `screenProblems` (what they show when the test leaves them). */
async function lookAtScreens(context: BrowserContext, baseURL: string): Promise<void> {
  for (const page of context.pages()) {
    if (!page.isClosed() && page.url().startsWith(baseURL)) await leaveScreen(page);
  }
}

/**
 * Makes `context.close()` look at its screens first, and each page's `goto` look at the screen
 * it leaves, so every screen a journey opens and leaves is checked.
 */
function lookBeforeClosing(context: BrowserContext, baseURL: string): void {
  openContexts.set(context, baseURL);
  context.on('close', () => openContexts.delete(context));
  context.on('page', (page) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      if (page.url().startsWith(baseURL)) await leaveScreen(page);
      return goto(url, options);
    };
  });
  const close = context.close.bind(context);
  context.close = async (options) => {
    if (openContexts.has(context)) await lookAtScreens(context, baseURL);
    return close(options);
  };
}

/**
 * The journeys' `test`: after each test, fails on what any screen did wrong on the way: a
 * Content-Security-Policy violation; an error toast, notification or dialog, a console error,
 * an uncaught page error or an HTTP answer ≥ 400 that the test did not declare with
 * `allowProblems` (the first-hour net).
 */
export const test = base.extend<{ journeyChecks: void }>({
  journeyChecks: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      cspViolations.length = 0;
      problems.length = 0;
      allowed = [];
      await use();
      // The screens the test left open are looked at too; after a failure they are not news.
      if (testInfo.status === testInfo.expectedStatus) {
        for (const [context, baseURL] of openContexts) await lookAtScreens(context, baseURL);
      }
      expect(cspViolations.splice(0), 'Content-Security-Policy violations').toEqual([]);
      const unexpected = problems.splice(0).filter((text) => !allowed.some((pattern) => pattern.test(text)));
      expect([...new Set(unexpected)], 'problems a person would meet (declare provoked ones with allowProblems)').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/**
 * Screenshots for the docs. `npm run screenshots` (SCREENSHOTS=1) writes every one; any other
 * run writes a shot only when it differs from the committed file: more than 0.01 % of its
 * pixels (anti-aliasing ignored) beyond pixelmatch's colour threshold, or another size, so a
 * run where nothing changed leaves docs/screenshots/ as it was. SCREENSHOTS=0 takes none: CI
 * (`.ci/run`) throws its clone away with whatever it would write (decision 0124).
 */
const writeEveryScreenshot = process.env.SCREENSHOTS === '1';
const takeScreenshots = process.env.SCREENSHOTS !== '0';
const CHANGED_PIXELS = 0.0001;

/** True when `next` shows something else than the PNG `previous` (an unreadable file counts as different). */
export function screenshotDiffers(previous: Buffer, next: Buffer): boolean {
  let before: PNG;
  let after: PNG;
  try {
    before = PNG.sync.read(previous);
    after = PNG.sync.read(next);
  } catch {
    return true;
  }
  if (before.width !== after.width || before.height !== after.height) return true;
  const changed = pixelmatch(before.data, after.data, null, before.width, before.height, { threshold: 0.1 });
  return changed > before.width * before.height * CHANGED_PIXELS;
}

function saveScreenshot(name: string, shot: Buffer): void {
  const file = join(screenshotDir, `${name}.png`);
  if (!writeEveryScreenshot && existsSync(file) && !screenshotDiffers(readFileSync(file), shot)) return;
  mkdirSync(screenshotDir, { recursive: true });
  writeFileSync(file, shot);
}

/**
 * What a docs screenshot leaves out so that it does not change from run to run: the clock's
 * data (a new record's code and times, the demo's dates relative to the start).
 */
export interface StillOptions {
  /** Painted over with a plain grey box (for text on top: inside a modal, not under it). */
  mask?: Locator[];
  /** A stylesheet applied for the shot only, e.g. `visibility: hidden` for the list under a modal. */
  style?: string;
}

/**
 * A screenshot for the docs once the page is still: images loaded and fonts ready, then shots
 * taken until two in a row are the same (layout, progress bar and fades done; 10 s at most).
 */
export async function screenshot(page: Page, name: string, still: StillOptions = {}): Promise<void> {
  await page.waitForFunction(() => document.fonts.status === 'loaded' && [...document.images].every((image) => image.complete), undefined, {
    timeout: 10_000,
  });
  if (!takeScreenshots) return;
  const options = { mask: still.mask, maskColor: '#d9d9d9', style: still.style };
  const deadline = Date.now() + 10_000;
  let shot = await page.screenshot(options);
  for (;;) {
    const next = await page.screenshot(options);
    const still = next.equals(shot);
    shot = next;
    if (still || Date.now() > deadline) break;
  }
  saveScreenshot(name, shot);
}

/**
 * Polls `read` until the matcher that follows holds (30 s at most, as the web-first assertions
 * in playwright.config.ts): for what no locator assertion reads (a URL's path, a value computed
 * in the page, an API answer).
 */
export const until = <T>(read: () => T | Promise<T>, timeout = 30_000) => expect.poll(read, { timeout, intervals: [100] });

/**
 * Closes the drawer, modal or menu that `element` shows with Escape, as a person does: once the
 * overlay has the focus (antd moves it into a drawer or a modal as it opens; a key pressed before
 * goes to the page, and the overlay stays), then again if it still shows 2 s later (on a loaded
 * machine the focus can arrive after the wait). A menu or popover closes on Escape wherever the
 * focus is. Answers once `element` is hidden. Nothing else waits for an overlay to be still before
 * the key: a docs screenshot used to, and CI takes none (decision 0124).
 */
export async function escapeFrom(page: Page, element: Locator): Promise<void> {
  const ready = () =>
    element.evaluate((el) => {
      const overlay = el.closest('.ant-drawer, .ant-modal-wrap') ?? el.querySelector('.ant-drawer, .ant-modal-wrap');
      if (overlay === null) return true;
      const active = document.activeElement;
      return active !== null && (el.contains(active) || active.closest('.ant-drawer, .ant-modal-wrap') !== null);
    });
  await expect
    .poll(ready, { timeout: 3_000 })
    .toBe(true)
    .catch(() => undefined);
  await page.keyboard.press('Escape');
  await expect(async () => {
    try {
      await expect(element).toBeHidden({ timeout: 2_000 });
    } catch (error) {
      await page.keyboard.press('Escape');
      throw error;
    }
  }).toPass({ timeout: 30_000 });
}

/**
 * A screenshot for the docs once the page has settled, `show` scrolled into the middle, without
 * the toasts (unless they are the point: `showToasts: true`). A toast is left out of the shot
 * by the shot's own stylesheet rather than waited out: antd shows one for 3 s after every save.
 */
export async function settledScreenshot(
  page: Page,
  name: string,
  { showToasts = false, show, ...still }: { showToasts?: boolean; show?: Locator } & StillOptions = {},
): Promise<void> {
  await show?.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const style = !showToasts ? `${still.style ?? ''}\n.ant-message { visibility: hidden !important; }` : still.style;
  await screenshot(page, name, { ...still, style });
}

/**
 * A fresh context in `locale` (kept as the app's language), signed in, on `path` once the layout
 * shows. The session comes from the sign-in call, one per context (decision 0095): a context's
 * session is its own, so a journey that signs out, views as another role or is disabled never
 * touches another's. The sign-in form itself is driven by the journeys about it (foundation,
 * account).
 */
export async function signedIn(
  browser: Browser,
  baseURL: string,
  { username, password, path, locale = 'zh-CN' }: { username: string; password: string; path: string; locale?: 'zh-CN' | 'en-US' },
): Promise<Page> {
  const token = await signInToken(baseURL, username, password);
  const context = await newContext(browser, baseURL, locale, {
    cookies: [],
    origins: [
      {
        origin: baseURL,
        localStorage: [
          { name: 'token', value: token },
          { name: 'locale', value: locale },
        ],
      },
    ],
  });
  const page = await context.newPage();
  await page.goto(path);
  await expect(page.getByTestId('app-layout')).toBeVisible();
  return page;
}

/** A new session's token from the sign-in call (a password-only account: the journeys' accounts). */
export async function signInToken(baseURL: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/admin/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { status: number; msg: string; data: { token: string } };
  expect(body.status, `sign-in as ${username}: ${body.msg}`).toBe(200);
  return body.data.token;
}

/** The owner publishes a notice (as the workplace's publish dialog does), through the API as the super admin. */
export async function publishAnnouncement(baseURL: string, title: string, content: string): Promise<void> {
  const token = await signInToken(baseURL, 'superadmin', ADMIN_PASSWORD);
  const answer = await fetch(`${baseURL}/api/admin/announcement/add`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ title, type: 'notice', content }),
  });
  expect(((await answer.json()) as { status: number }).status).toBe(200);
}

export async function login(page: Page, username: string, password: string): Promise<void> {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

export function cleanTmp(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}

/** One journey file's running app: a server (on the demo business when `env.DEMO` is '1') and a browser. */
export interface JourneyApp {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** A fresh signed-in context on `path` (see `signedIn`). */
  signedIn(username: string, password: string, path: string, locale?: 'zh-CN' | 'en-US'): Promise<Page>;
  /** GET `/api${path}` with the token of `page`'s session; expects the envelope's status 200 and answers its data. */
  apiGet<T>(page: Page, path: string): Promise<T>;
}

/**
 * Starts the server and the browser before the file's tests and stops them after: the setup
 * every journey shares. `useApp({ DEMO: '1' })` for the demo business, `useApp()` for an empty one.
 */
export function useApp(env: Record<string, string> = {}): JourneyApp {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  test.beforeAll(async ({ browser: launched }) => {
    test.setTimeout(120_000);
    server = await startServer(env);
    journeyServer = server;
    browser = launched;
  });
  test.afterAll(async () => {
    journeyServer = undefined;
    await server?.stop();
  });
  const app: JourneyApp = {
    get server() {
      if (server === undefined) throw new Error('the server starts in beforeAll');
      return server;
    },
    get browser() {
      if (browser === undefined) throw new Error('the browser starts in beforeAll');
      return browser;
    },
    signedIn: (username, password, path, locale = 'zh-CN') => signedIn(app.browser, app.server.url, { username, password, path, locale }),
    apiGet: (page, path) => apiGet(app.server.url, page, path),
  };
  return app;
}

/** GET `${baseURL}/api${path}` as the session signed in on `page`; expects status 200 in the envelope and answers its data. */
export async function apiGet<T>(baseURL: string, page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${baseURL}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { status: number; msg: string; data: T };
  expect(body.status, `${path}: ${body.msg}`).toBe(200);
  return body.data;
}

/** Picks an option of the antd Select inside the form item labelled `label` within `scope`, typing `search` first when given. */
export async function pick(page: Page, scope: Locator, label: string, option: string | RegExp, search?: string): Promise<void> {
  const item = scope
    .locator('.ant-form-item')
    .filter({ has: page.locator('label', { hasText: label }) })
    .first();
  const select = item.locator('.ant-select').first();
  const chosen = select.locator('.ant-select-content-has-value').first();
  const shown = async () => {
    const text = (await chosen.count()) > 0 ? ((await chosen.textContent()) ?? '') : '';
    return typeof option === 'string' ? text.includes(option) : option.test(text);
  };
  // A searched list is the server's answer: while it is loading, the previous answer's options
  // are on screen and a click can land on one being replaced, leaving nothing chosen. So wait
  // for the answer, and check the field shows the choice; choose again if it does not (3 tries).
  for (let attempt = 1; ; attempt++) {
    await select.click();
    if (search !== undefined) {
      await item.locator('.ant-select input').first().fill(search);
      await until(async () => /\bant-select-loading\b/.test((await select.getAttribute('class')) ?? '')).toBe(false);
    }
    await chooseOption(page, option);
    try {
      await until(shown, 5_000).toBe(true);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      console.warn(`pick: "${label}" did not show ${String(option)} after try ${attempt}; choosing again`);
      await page.keyboard.press('Escape');
    }
  }
}

/** Switches the signed-in app's language from the navbar's globe menu (`label`: '简体中文' or 'English'). */
export async function switchLanguage(page: Page, label: string): Promise<void> {
  await page.getByTestId('lang-switch').click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item').filter({ hasText: label }).click();
}

/** Clicks the first option matching `option` in the open antd Select dropdown. */
export async function chooseOption(page: Page, option: string | RegExp): Promise<void> {
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
}

/** Every screen path of the route table, parameters filled with demo values; `*` and redirects left out. */
export function screenPaths(role: string, params: Record<string, string>): string[] {
  return screenRoutes(role, params).map((s) => s.path);
}

/** The screens of `screenPaths`, each with whether it renders inside the signed-in layout. */
export function screenRoutes(role: string, params: Record<string, string>): { path: string; inLayout: boolean }[] {
  const screens: { path: string; inLayout: boolean }[] = [];
  const walk = (routes: readonly RouteDef[], inLayout: boolean) => {
    for (const route of routes) {
      if (route.children) walk(route.children, inLayout || route.layout === 'default');
      if (!isScreen(route) || route.path === '' || route.path === '*' || route.path.startsWith('/redirect')) continue;
      if (route.path === '/login') continue; // a signed-in user is sent on; the login page has its own checks (foundation)
      if (!canAccess(route, role)) continue;
      const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
        const value = params[name];
        if (value === undefined) throw new Error(`no demo value for :${name} in ${route.path}`);
        return encodeURIComponent(value);
      });
      screens.push({ path, inLayout });
    }
  };
  walk(routeTable, false);
  return screens;
}

/** The paths of the screens inside the signed-in layout, as patterns (a parameter matches one segment). */
const layoutScreens: RegExp[] = (() => {
  const found: RegExp[] = [];
  const walk = (routes: readonly RouteDef[], inLayout: boolean) => {
    for (const route of routes) {
      const within = inLayout || route.layout === 'default';
      if (route.children) walk(route.children, within);
      else if (within && route.path.startsWith('/')) found.push(new RegExp(`^${route.path.replace(/:\w+/g, '[^/]+')}$`));
    }
  };
  walk(routeTable, false);
  return found;
})();

const isLayoutScreen = (path: string) => layoutScreens.some((pattern) => pattern.test(new URL(path, 'http://x').pathname));

/**
 * Opens `path` as a person following a link would: inside the app already on the page (the
 * router's own navigation, no reload) when the page shows the signed-in layout and `path` is one
 * of its screens; else by loading it (`goto`). A full load costs Chromium about 3 s of CPU
 * (every chunk compiled, the app booted, antd's styles computed again), an in-app one about a
 * third to a tenth of that (decision 0122): the sweeps of every screen use this. The screen left
 * is looked at first, as `goto` does (`lookBeforeClosing`). Answers once the page has settled.
 */
export async function visit(page: Page, path: string): Promise<void> {
  const here = page.url();
  const inApp =
    isLayoutScreen(path) && here.startsWith('http') && isLayoutScreen(here) && (await page.getByTestId('app-layout').count()) === 1;
  if (!inApp) {
    await page.goto(path);
    await settle(page);
    return;
  }
  await leaveScreen(page);
  // What the browser's back and forward buttons do: react-router reads the new location and
  // navigates to it (its loaders and guards run as on a link's click).
  await page.evaluate((to) => {
    const state = (window.history.state ?? {}) as { idx?: number };
    window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx: (state.idx ?? 0) + 1 }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, path);
  // The router commits the new location once its loaders are done, in a transition that a busy
  // machine may render after the network has gone quiet: until then a click acts on the screen
  // being left (the phone's menu opens for the old address and closes at once).
  await page.waitForFunction(() => {
    const layout = document.querySelector('[data-testid="app-layout"]');
    return layout === null || layout.getAttribute('data-path') === window.location.pathname;
  });
  await settle(page);
}

/** Demo values for the route table's parameters: a public order's code and id. */
export function demoParams(server: RunningServer): Record<string, string> {
  const order = server.db().prepare('select code, id from orders where if_public = 1 order by id limit 1').get() as {
    code: string;
    id: number;
  };
  return { code: order.code, id: String(order.id) };
}

/**
 * Every table cell under `scope` (the whole page by default) whose content is cut, as
 * `<screen>: column "<header>" cuts "<text>" (<needed> px in <shown>)`; [] when none is.
 * Clipped: antd's ellipsis span in the cell is cut, or the cell scrolls (`scrollWidth >
 * clientWidth + 1`) because what it holds runs past its content box (not a pinned column's shadow). The rule: a header never clips; a body cell may
 * ellipsize long user text (an ellipsis column) only while at least its first word shows
 * whole, with room for the "…" after it; any other body cell never clips.
 */
export async function clippedCells(page: Page, screen: string, scope?: Locator): Promise<string[]> {
  const root = scope ?? page.locator('body');
  const found = await root.evaluate((el) => {
    const out: { column: string; text: string; need: number; shown: number }[] = [];
    const canvas = document.createElement('canvas').getContext('2d')!;
    const words = new Intl.Segmenter(document.documentElement.lang || undefined, { granularity: 'word' });
    const cells = el.querySelectorAll<HTMLElement>(
      '.ant-table-thead th:not(.ant-table-selection-column):not(.ant-table-cell-scrollbar), .ant-table-tbody > tr.ant-table-row > td:not(.ant-table-selection-column)',
    );
    for (const cell of cells) {
      if (cell.offsetParent === null) continue;
      const header = cell.tagName === 'TH';
      const table = cell.closest('table')!;
      const th = header
        ? cell
        : table.closest('.ant-table')?.querySelectorAll('.ant-table-thead th')[(cell as HTMLTableCellElement).cellIndex];
      const column = (th?.textContent ?? '').trim() || `#${(cell as HTMLTableCellElement).cellIndex + 1}`;
      const text = (cell.textContent ?? '').trim();
      // A Latin word broken over two lines ("Announcemen" / "ts") is cut too, though nothing spills.
      const cellStyle = getComputedStyle(cell);
      const contentWidth = cell.clientWidth - parseFloat(cellStyle.paddingLeft) - parseFloat(cellStyle.paddingRight);
      let broken: { word: string; width: number } | undefined;
      const textWalker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = textWalker.nextNode(); node && !broken; node = textWalker.nextNode()) {
        const value = node.textContent ?? '';
        const whole = document.createRange();
        whole.selectNodeContents(node);
        if (!/[A-Za-z0-9]{2,}/.test(value) || whole.getClientRects().length < 2) continue;
        for (const match of value.matchAll(/[A-Za-z0-9]{2,}/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          // On two lines, and too wide for one: not a Chinese line's break-all, a column too narrow.
          const rects = [...range.getClientRects()];
          const width = rects.reduce((sum, r) => sum + r.width, 0);
          if (new Set(rects.map((r) => Math.round(r.top))).size > 1 && width > contentWidth + 1) {
            broken = { word: match[0], width };
            break;
          }
        }
      }
      if (broken && !cell.classList.contains('ant-table-cell-ellipsis')) {
        out.push({ column, text: `${broken.word}, broken over two lines`, need: Math.ceil(broken.width), shown: Math.floor(contentWidth) });
        continue;
      }
      // Where to look: the cell or antd's ellipsis span in it scrolls (scrollWidth > clientWidth).
      const spans = [...cell.querySelectorAll<HTMLElement>('.ant-table-cell-content, .ant-table-column-title')];
      const spanCut = spans.some((span) => span.scrollWidth > span.clientWidth + 1);
      if (!spanCut && cell.scrollWidth <= cell.clientWidth + 1) continue;
      // Then what the cell holds (text, buttons, tags; what spills out of them, not what an element
      // inside hides itself, like a switch's other label) against the cell's content box: a pinned
      // column's shadow adds to the cell's scrollWidth too.
      let left = Infinity;
      let right = -Infinity;
      const pending: Node[] = [...cell.childNodes];
      while (pending.length) {
        const node = pending.shift()!;
        let rect: DOMRect | null = null;
        if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          rect = range.getBoundingClientRect();
        } else if (node instanceof Element) {
          const nodeStyle = getComputedStyle(node);
          if (nodeStyle.display === 'none') continue;
          rect = node.getBoundingClientRect();
          if (nodeStyle.overflowX === 'visible') pending.push(...node.childNodes);
        }
        if (rect && (rect.width > 0 || rect.height > 0)) {
          left = Math.min(left, rect.left);
          right = Math.max(right, rect.right);
        }
      }
      const box = cell.getBoundingClientRect();
      const style = getComputedStyle(cell);
      const innerLeft = box.left + cell.clientLeft + parseFloat(style.paddingLeft);
      const innerRight = box.left + cell.clientLeft + cell.clientWidth - parseFloat(style.paddingRight);
      if (!spanCut && !(right > innerRight + 1 || left < innerLeft - 1)) continue;
      const report = {
        column,
        text,
        need: Math.ceil(Math.max(right - left, 0) + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight)),
        shown: cell.clientWidth,
      };
      const ellipsis = cell.classList.contains('ant-table-cell-ellipsis');
      if (header || !ellipsis) {
        out.push(report);
        continue;
      }
      // An ellipsis cell: its first word (as the language splits words) must show, and the "…".
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      let node = walker.nextNode() as Text | null;
      while (node && !(node.textContent ?? '').trim()) node = walker.nextNode() as Text | null;
      if (!node) continue;
      const value = node.textContent ?? '';
      const first = [...words.segment(value)].find((s) => s.isWordLike) ?? [...words.segment(value)].find((s) => s.segment.trim());
      if (!first) continue;
      const range = document.createRange();
      range.setStart(node, first.index);
      range.setEnd(node, first.index + first.segment.length);
      canvas.font = style.font;
      const room = innerRight - canvas.measureText('…').width;
      if (range.getBoundingClientRect().right > room + 0.5) out.push(report);
    }
    return out;
  });
  return found.map((c) => `${screen}: column "${c.column}" cuts "${c.text.slice(0, 60)}" (${c.need} px in ${c.shown})`);
}

/**
 * Fails naming the screen, column and text of every clipped table cell under `scope` (see
 * `clippedCells`), once the table has had 5 s to settle (fonts, a late resize).
 */
export async function expectNothingClipped(page: Page, screen: string, scope?: Locator): Promise<void> {
  await until(() => clippedCells(page, screen, scope), 5_000).toEqual([]);
}

/**
 * The sides of each chart box in `boxes` whose canvas has ink in its outermost pixel columns,
 * as `<test id> is cut at its left side`. ECharts draws on a canvas and nothing of a chart is
 * meant to touch its box's sides (the grids keep a margin), so ink there is a label the box
 * cuts, like a referrer shown as "ttps://…". Hidden boxes (a tab kept alive) are skipped.
 */
function inkedSides(boxes: Locator): Promise<string[]> {
  return boxes.evaluateAll((elements) =>
    elements.flatMap((box) => {
      const canvas = box.querySelector('canvas');
      if (!canvas || !box.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) || canvas.width === 0) return [];
      const id = box.getAttribute('data-testid') ?? '(chart)';
      const context = canvas.getContext('2d');
      if (!context) return [`${id} has no 2d canvas`];
      const strip = Math.max(2, Math.ceil(2 * window.devicePixelRatio));
      const inked = (x: number) => context.getImageData(x, 0, strip, canvas.height).data.some((v, i) => i % 4 === 3 && v > 0);
      return [inked(0) ? 'left' : '', inked(canvas.width - strip) ? 'right' : '']
        .filter(Boolean)
        .map((side) => `${id} is cut at its ${side} side`);
    }),
  );
}

/** Every chart shown on `page` (the app's `EChart` boxes) cut at a side (see `inkedSides`), as `<screen>: chart …`. */
export async function chartsCutOnScreen(page: Page, screen: string): Promise<string[]> {
  return (await inkedSides(page.locator('.echart'))).map((text) => `${screen}: chart ${text}`);
}

/** The charts `testIds` (each waited for until drawn) cut at a side (see `inkedSides`), as `<screen>: chart …`. */
export async function chartsCutAtSides(page: Page, screen: string, testIds: readonly string[]): Promise<string[]> {
  for (const id of testIds) await page.getByTestId(id).locator('canvas').first().waitFor();
  const boxes = page.locator(testIds.map((id) => `[data-testid="${id}"]`).join(', '));
  return (await inkedSides(boxes)).map((text) => `${screen}: chart ${text}`);
}
