import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../lib/errors.ts';
import { ok, responses } from '../../lib/envelope.ts';
import { t } from '../../lib/messages.ts';
import { localeOf, requireUser } from '../../http/route-context.ts';
import { UploadTokenData, UploadTokenQuery } from '@clearplay/contract';
import type { UploadsConfig } from './uploads.config.ts';
import { createEvidenceUrls, createUploadSigner, InvalidUploadKeyError, issueUploadToken } from './uploads.service.ts';

/** What the module needs of the app's configuration (AppConfig gains `uploads`). */
export interface UploadRouteDeps {
  config: { dataDir: string; uploads: UploadsConfig };
}

const uploadRoutes: FastifyPluginAsyncTypebox<UploadRouteDeps> = async (app, { config }) => {
  const signer = createUploadSigner(config.uploads, config.dataDir, await createEvidenceUrls(config));

  app.get(
    '/admin/upload/token',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['uploads'],
        summary: 'A short-lived upload token for one evidence image or an avatar, with the key it may be stored under',
        security: [{ bearer: [] }],
        querystring: UploadTokenQuery,
        response: responses(UploadTokenData),
      },
    },
    async (request) => {
      try {
        return ok(issueUploadToken(signer, request.query, requireUser(request).id));
      } catch (error) {
        if (error instanceof InvalidUploadKeyError) {
          throw new AppError(400, 'errors.validation', { field: 'key', message: t(localeOf(request), 'validation.invalid') });
        }
        throw error;
      }
    },
  );
};

export default uploadRoutes;
