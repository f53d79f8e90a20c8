import type { MenuItem } from '@clearplay/contract';
import { menuEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /api/menu: the menu the server builds for the session's role from the shared route table
 * (the settings' "serverMenu list"). Quiet: the settings drawer says "error" itself.
 */
export const fetchServerMenu = (): Promise<MenuItem[]> => api.call(menuEndpoints.menu, { quiet: true });
