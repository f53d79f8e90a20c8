export { trackEvent, trackPageView, trackRouteChange } from './api/track.ts';
