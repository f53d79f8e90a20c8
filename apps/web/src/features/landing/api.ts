import type { PublicCertificate, PublicFigures, PublicLinksData, PublicLookupData, PublicPricesData } from '@clearplay/contract';
import { api } from '../../lib/api-client.ts';

/**
 * The public calls (issue 16). `quiet`: the public pages show every failure where it
 * happened (a look-up's rate limit under its form), never as a toast.
 */
const quiet = { quiet: true, session: 'guard' } as const;

export const lookupChatId = (chatId: string) => api.get<PublicLookupData>('/public/lookup', { ...quiet, params: { chatId } });
export const fetchCertificate = (code: string) => api.get<PublicCertificate>(`/public/verify/${encodeURIComponent(code)}`, quiet);
export const fetchLinks = () => api.get<PublicLinksData>('/public/links', quiet);
export const fetchPrices = () => api.get<PublicPricesData>('/public/prices', quiet);
export const fetchFigures = () => api.get<PublicFigures>('/public/figures', quiet);
