import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { AppError } from '../../lib/errors.ts';
import { ok } from '../../lib/envelope.ts';
import { t } from '../../lib/messages.ts';
import { localeOf, requireUser } from '../../http/route-context.ts';
import { uploadEndpoints as api } from '@clearplay/contract';
import type { UploadsConfig } from './uploads.config.ts';
import { createEvidenceUrls, createUploadSigner, InvalidUploadKeyError, issueUploadToken } from './uploads.service.ts';

/** What the module needs of the app's configuration (AppConfig gains `uploads`). */
export interface UploadRouteDeps {
  config: { dataDir: string; uploads: UploadsConfig };
}

const uploadRoutes: FastifyPluginAsync<UploadRouteDeps> = async (app, { config }) => {
  const signer = createUploadSigner(config.uploads, config.dataDir, await createEvidenceUrls(config));

  route(app, api.token, async (request) => {
    try {
      return ok(issueUploadToken(signer, request.query, requireUser(request).id));
    } catch (error) {
      if (error instanceof InvalidUploadKeyError) {
        throw new AppError(400, 'errors.validation', { field: 'key', message: t(localeOf(request), 'validation.invalid') });
      }
      throw error;
    }
  });
};

export default uploadRoutes;
