import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { i18n, initI18n } from './lib/i18n.ts';
import { appStore } from './lib/settings.ts';
import { StorageKey, storage } from './lib/storage.ts';
import './app/global.css';
import { App } from './app/App.tsx';
import { router } from './app/router.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/**
 * /login comes prerendered (dist/login.html, see vite.config.ts `prerenderLogin`): zh-CN,
 * light theme, empty form. When this browser would render exactly that, React hydrates the
 * markup (antd reuses the styles in the page); otherwise (saved English or dark theme, a
 * remembered username) it renders afresh over it, and index.html's CSS keeps the
 * prerendered form hidden meanwhile for the language and theme cases.
 */
const prerendered = container.dataset.prerendered;
const matchesPrerender = () =>
  i18n.language === prerendered &&
  appStore.get().theme === 'light' &&
  !storage.read(StorageKey.REMEMBERED_USERNAME) &&
  router.state.location.pathname === '/login';

/** The router's first navigation (the screen's chunk, its loader) has finished. */
const routerReady = () =>
  new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });

/** Drops the prerender mark once React owns #root (tests and the bench wait for that). */
function TakenOver({ children }: { children: ReactNode }) {
  useEffect(() => {
    delete container?.dataset.prerendered;
  }, []);
  return children;
}

const app = (
  <StrictMode>
    <TakenOver>
      <App />
    </TakenOver>
  </StrictMode>
);

// The router starts loading the first screen meanwhile (app/router.tsx creates it on import).
void initI18n().then(async () => {
  if (!prerendered) {
    createRoot(container).render(app);
    return;
  }
  // Rendering before the screen's chunk is in would replace the form with nothing.
  await routerReady();
  if (matchesPrerender()) {
    // As a transition, React hydrates in slices of a few milliseconds instead of one long
    // task that would keep a slow phone from answering a tap (React Router does the same).
    startTransition(() => {
      hydrateRoot(container, app);
    });
  } else {
    // Synchronously, so the prerendered form is replaced in one frame (no blank flash).
    const root = createRoot(container);
    flushSync(() => root.render(app));
  }
});
