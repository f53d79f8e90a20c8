import { endpoint } from './endpoint.ts';

/** Upload tokens: the key is the caller's own (it carries their user id; a key given back must be theirs). */
export const uploadEndpoints = {
  token: endpoint({
    method: 'GET',
    path: '/admin/upload/token',
    access: { auth: 'user', records: 'own' },
    summary: 'A short-lived upload token for one evidence image or an avatar, with the key it may be stored under',
    tag: 'uploads',
    schemas: (s) => ({ query: s.UploadTokenQuery, response: s.UploadTokenData }),
  }),
};
