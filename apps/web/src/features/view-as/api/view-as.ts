import type { CurrentUser, ViewAsBody, ViewAsEnded } from '@clearplay/contract';
import { viewAsEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

/** POST /api/admin/account/view-as: the super admin starts viewing as a role; answers the session as it now is. */
export const startViewAs = (body: ViewAsBody): Promise<CurrentUser> => api.call(viewAsEndpoints.start, { body });

/** POST /api/admin/account/view-as/end: switch back. */
export const endViewAs = (): Promise<ViewAsEnded> => api.call(viewAsEndpoints.end);
