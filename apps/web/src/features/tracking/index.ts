export { documentReferrer, trackEvent, trackPageView, trackRouteChange } from './api/track.ts';
