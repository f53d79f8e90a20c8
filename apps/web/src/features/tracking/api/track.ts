import type { EventBody, PageViewBody } from '@clearplay/contract';
import { trackingEndpoints, type TrackedEvent } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';
import type { RouteChange } from '../../../lib/route-listener.ts';

/** The contract's field limits (packages/contract/src/tracking.ts). */
const FIELD_MAX = 512;

/**
 * Spec §7 "Tracking": fire-and-forget. Sent with fetch keepalive through the API client (the
 * bearer token goes along, which sendBeacon could not send), never awaited by navigation, no
 * toasts, and a failure never reaches the screen. On a signed-in screen an ended session is
 * still reported (the logged-out dialog); on a public page (`guard`) it is not, since the
 * visitor did nothing that needs a session.
 */
export function trackPageView(body: PageViewBody, options: { publicPage?: boolean } = {}): void {
  api
    .call(trackingEndpoints.pageView, { body, quiet: true, keepalive: true, session: options.publicPage ? 'guard' : 'default' })
    .catch(() => undefined);
}

/** One of the app's named events (contract TRACKED_EVENTS); `data` goes along as it is. */
export function trackEvent(event: TrackedEvent, data?: unknown): void {
  const body: EventBody = { event, data, timestamp: Date.now() };
  api.call(trackingEndpoints.event, { body, quiet: true, keepalive: true }).catch(() => undefined);
}

/**
 * The document's referrer as the statistics read it: a page of this site by its path (as the
 * router reports a navigation inside the app), another site by its address, none as ''.
 */
export function documentReferrer(
  referrer = typeof document === 'undefined' ? '' : document.referrer,
  origin = typeof window === 'undefined' ? '' : window.location.origin,
): string {
  if (referrer === '') return '';
  try {
    const url = new URL(referrer);
    return url.origin === origin ? url.pathname + url.search : referrer;
  } catch {
    return referrer;
  }
}

let previous: string | null = null;

/**
 * One page view per finished navigation, public pages included (the router calls this for
 * every route change, signed in or not). The referrer is the previous route's path, or for
 * the first page the document's referrer (another site, or none).
 */
export function trackRouteChange(change: RouteChange, publicPage: boolean): void {
  const referrer = previous ?? documentReferrer();
  trackPageView(
    {
      path: change.fullPath.slice(0, FIELD_MAX),
      userAgent: navigator.userAgent.slice(0, FIELD_MAX),
      referrer: referrer.slice(0, FIELD_MAX),
    },
    { publicPage },
  );
  previous = change.fullPath;
}
