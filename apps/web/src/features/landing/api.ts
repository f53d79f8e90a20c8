import { publicEndpoints } from '@clearplay/contract/constants';
import { api } from '../../lib/api-client.ts';

/**
 * The public calls. `quiet`: the public pages show every failure where it
 * happened (a look-up's rate limit under its form), never as a toast.
 */
const quiet = { quiet: true, session: 'guard' } as const;

export const lookupChatId = (chatId: string) => api.call(publicEndpoints.lookup, { ...quiet, query: { chatId } });
export const fetchCertificate = (code: string) => api.call(publicEndpoints.verify, { ...quiet, params: { code } });
export const fetchLinks = () => api.call(publicEndpoints.links, quiet);
export const fetchPrices = () => api.call(publicEndpoints.prices, quiet);
export const fetchFigures = () => api.call(publicEndpoints.figures, quiet);
