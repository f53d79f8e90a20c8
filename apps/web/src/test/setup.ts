// The component tests' browser (jsdom): what jsdom lacks and antd needs, the app's i18n in
// zh-CN with the screens' and the public pages' messages, and a clean page and storage after every test.
import { message } from 'antd';
import { cleanup, configure, waitFor } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { initI18n, loadScreenMessages } from '../lib/i18n.ts';

/**
 * `(min-width: 992px)`, `(max-width: 575.98px)`, joined by `and`, judged against the window's
 * width; and reduced motion asked for, as the browser journeys do: the app then turns antd's
 * animations off (jsdom runs no CSS transition, so a closing toast would never leave).
 */
function mediaMatches(query: string): boolean {
  if (query.includes('prefers-reduced-motion')) return query.includes('reduce');
  const conditions = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)px\)/g)];
  if (conditions.length === 0) return false;
  return conditions.every(([, bound, px]) => (bound === 'min' ? window.innerWidth >= Number(px) : window.innerWidth <= Number(px)));
}

// antd's Grid.useBreakpoint, responsive observers and reduced-motion checks read matchMedia.
window.matchMedia = (query: string): MediaQueryList => {
  const list = {
    media: query,
    matches: mediaMatches(query),
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  };
  return list as MediaQueryList;
};

// rc-resize-observer (Table, Tooltip, Popover) observes sizes; jsdom lays nothing out, so there is nothing to report.
window.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// jsdom implements getComputedStyle without pseudo-elements and logs "Not implemented" for
// them (antd asks for `::before` when measuring scroll bars): the element's own style instead.
// Testing Library's role queries ask for the style of every element and its ancestors, and
// jsdom computes each from scratch (tens of ms on a loaded machine): the answers are kept
// until the document next changes (any mutation: seen by the observer, or synchronously by
// takeRecords before the observer has run).
const computedStyle = window.getComputedStyle.bind(window);
let computed = new WeakMap<Element, CSSStyleDeclaration>();
const changes = new MutationObserver(() => (computed = new WeakMap()));
changes.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
window.getComputedStyle = (element: Element) => {
  if (changes.takeRecords().length > 0) computed = new WeakMap();
  let style = computed.get(element);
  if (style === undefined) {
    style = computedStyle(element);
    computed.set(element, style);
  }
  return style;
};

// jsdom has no object URLs; the image uploader shows a local thumbnail with one.
let objectUrls = 0;
URL.createObjectURL ??= () => `blob:http://localhost/${(objectUrls += 1)}`;
URL.revokeObjectURL ??= () => undefined;

// Not implemented by jsdom; antd scrolls lists and the page.
window.scrollTo = () => undefined;
Element.prototype.scrollTo ??= () => undefined;

// A loaded 2-core machine renders antd slowly: the conditions waited on get time to come true.
configure({ asyncUtilTimeout: 10_000 });

beforeAll(async () => {
  window.localStorage.setItem('locale', 'zh-CN');
  // Both parts: the component tests render the public pages' parts as well as the screens.
  await initI18n(undefined, ['public']);
  await loadScreenMessages();
  // The API client loads its toasts' module on first use (lib/feedback.ts). Loaded here, a
  // toast raised by a test's last call is on screen within a task, so the afterEach below sees
  // and closes it; loaded late, it could open after the file's jsdom is gone and fail the run
  // ("window is not defined" from React's scheduler).
  await import('../lib/feedback-ui.tsx');
});

afterEach(async () => {
  cleanup();
  // A toast raised by the test's last call renders within a task (its module is loaded above).
  await new Promise((resolve) => setTimeout(resolve, 0));
  // The API client's error toasts live outside the rendered tree (antd's static message).
  // Only when one is open: antd's destroy before its first toast leaves it unable to show any.
  if (document.querySelector('.ant-message-notice')) {
    message.destroy();
    await waitFor(() => {
      if (document.querySelector('.ant-message-notice')) throw new Error('a toast is still open');
    });
  }
  window.localStorage.clear();
  window.localStorage.setItem('locale', 'zh-CN');
});
