import { lazy, StrictMode, Suspense } from 'react';
import { documentReferrer, trackPageView } from '../features/tracking/index.ts';
import LandingPage from '../features/landing/LandingPage.tsx';
import { PublicPath } from '../features/landing/index.ts';
import LinkStorePage from '../features/linkstore/LinkStorePage.tsx';

/** The certificate is not prerendered (one page per code) and carries antd's QR code: its own chunk. */
const VerifyPage = lazy(() => import('../features/verify/VerifyPage.tsx'));

export type PublicPage = { name: 'landing' | 'linkstore' } | { name: 'verify'; code: string };

/**
 * The public pages of the route table (`/`, `/home`, `/linkstore`, `/verify/:code`), which the
 * server answers with the public entry (public.html, prerendered for the first three; decision
 * 0068). Keep in step with PUBLIC_PAGES in apps/server/src/plugins/spa.ts.
 */
export function publicPageOf(path: string): PublicPage | null {
  if (path === '/' || path === '/home') return { name: 'landing' };
  if (path === '/linkstore') return { name: 'linkstore' };
  const verify = /^\/verify\/([^/]+)$/.exec(path);
  if (verify?.[1]) {
    try {
      return { name: 'verify', code: decodeURIComponent(verify[1]) };
    } catch {
      return { name: 'verify', code: verify[1] };
    }
  }
  return null;
}

/** The tree of a public page: the same in the browser (src/public.tsx) and in the prerender. */
export function PublicApp({ path }: { path: string }) {
  const page = publicPageOf(path);
  return (
    <StrictMode>
      {/* `/home` is `/` (its canonical address): the same links, so its prerender is `/`'s. */}
      <PublicPath value={path === '/home' ? '/' : path}>
        {page?.name === 'landing' && <LandingPage />}
        {page?.name === 'linkstore' && <LinkStorePage />}
        {page?.name === 'verify' && (
          <Suspense fallback={null}>
            <VerifyPage code={page.code} />
          </Suspense>
        )}
      </PublicPath>
    </StrictMode>
  );
}

/** One page view, as the back office's router reports each navigation (visit statistics). */
export function trackPublicView(): void {
  trackPageView(
    {
      path: (window.location.pathname + window.location.search).slice(0, 512),
      userAgent: navigator.userAgent.slice(0, 512),
      referrer: documentReferrer().slice(0, 512),
    },
    { publicPage: true },
  );
}
