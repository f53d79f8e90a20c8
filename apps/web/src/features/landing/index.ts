/** What the other public pages (link store, certificate) use of the landing feature. */
export { PublicFooter, PublicHeader, ResultTag } from './PublicHeader.tsx';
export { fetchCertificate, fetchLinks } from './api.ts';
export { usePublicData, type Loaded } from './usePublicData.ts';
export { PAGE_HEAD, PublicPath, hrefIn, pageTitle, usePublicHead, usePublicHref } from './site.ts';
