import { startTransition, useEffect, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { i18n, initI18n, isLocale } from './lib/i18n.ts';
import './app/global.css';
import { PublicApp, trackPublicView } from './app/PublicApp.tsx';

/**
 * The public pages' entry (public.html; decision 0068): React, i18next and the pages' own plain
 * elements and CSS, no antd, router, chart or back-office code. `/`, `/home` and `/linkstore`
 * come prerendered in the language of their address (`?lang=`, zh-CN without one): React hydrates
 * that HTML when it shows the same language, and renders afresh over it otherwise (a saved
 * language), which public.html's CSS keeps hidden meanwhile. `/verify/<code>` renders here.
 */
const container = document.getElementById('root');
if (!container) throw new Error('public.html has no #root element');
const prerendered = container.dataset.prerendered;

/** The address's language wins over the saved one: a shared English link opens in English. */
const asked = new URLSearchParams(window.location.search).get('lang');

/** Drops the prerender mark once React owns #root (boot.js's submit guard ends; tests wait for it). */
function TakenOver({ children }: { children: ReactNode }) {
  useEffect(() => {
    delete container?.dataset.prerendered;
    trackPublicView();
  }, []);
  return children;
}

const app = (
  <TakenOver>
    <PublicApp path={window.location.pathname} />
  </TakenOver>
);

// The pages' own messages (their chunk, not the back office's) come with the core ones.
void initI18n(isLocale(asked) ? asked : undefined, ['public']).then(() => {
  if (!prerendered) {
    createRoot(container).render(app);
  } else if (i18n.language === prerendered) {
    startTransition(() => {
      hydrateRoot(container, app);
    });
  } else {
    // Synchronously, so the prerendered page is replaced in one frame.
    const root = createRoot(container);
    flushSync(() => root.render(app));
  }
});
