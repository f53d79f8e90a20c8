import type { EventBody, PageViewBody } from '@clearplay/contract';
import { api } from '../../../lib/api-client.ts';
import { listenRouteChange, type RouteChange } from '../../../lib/route-listener.ts';

/**
 * Spec §7 "Tracking": fire-and-forget. No toasts, and a failure never reaches the screen,
 * but a session that ended is still reported by the client (the logged-out dialog).
 */
export function trackPageView(body: PageViewBody): void {
  api.post('/visit-stats/create', body, { quiet: true }).catch(() => undefined);
}

export function trackEvent(event: string, data?: unknown): void {
  const body: EventBody = { event, data, timestamp: Date.now() };
  api.post('/analytics/event', body, { quiet: true }).catch(() => undefined);
}

/** Records every route change of the signed-in app; returns the unsubscribe function. */
export function trackRouteChanges(): () => void {
  let previous = typeof document === 'undefined' ? '' : document.referrer;
  return listenRouteChange((change: RouteChange) => {
    trackPageView({ path: change.fullPath.slice(0, 512), userAgent: navigator.userAgent.slice(0, 512), referrer: previous.slice(0, 512) });
    previous = change.fullPath;
  });
}
