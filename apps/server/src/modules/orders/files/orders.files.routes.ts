import { createHash } from 'node:crypto';
import { orderEndpoints as api } from '@clearplay/contract';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { fileAnswer, route } from '../../../http/endpoint.ts';
import { ok } from '../../../lib/envelope.ts';
import { operatorOf, localeOf, type RouteDeps } from '../../../http/route-context.ts';
import { createBlobStore, createEvidenceUrls } from '../../uploads/uploads.service.ts';
import { orderZip } from './orders.download.ts';
import { exportOrders } from './orders.export.ts';
import { importTemplate } from '../import/template.ts';
import { importSheetFile, stopImportThread } from '../import/thread.ts';
import { IMPORT_FORM_LIMITS, readUploadedFile } from '../import/upload.ts';
import { importLogDetails, importLogText } from '../import/outcome.ts';
import { attachment, XLSX_TYPE } from './orders.sheet.ts';
import { logText } from '../../../lib/log-text.ts';
import { claimOf, markReplay, onceApart } from '../../idempotency/idempotency.service.ts';

/** Order files (docs/product.md "Orders"): import with its template, export, and an order's evidence ZIP. */
const orderFileRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config }) => {
  // Multipart bodies in this plugin only: the import reads its file with a size limit (import/upload.ts).
  await app.register(fastifyMultipart, { limits: IMPORT_FORM_LIMITS });
  const blobs = await createBlobStore(config);
  const urls = await createEvidenceUrls(config);
  // The import's worker thread (import/thread.ts) ends with the app.
  app.addHook('onClose', () => stopImportThread(db));

  route(
    app,
    api.importTemplate,
    async (request, reply) => {
      const locale = localeOf(request);
      const data = await importTemplate(db, locale);
      const name = locale === 'zh-CN' ? '订单导入模板' : 'order-import-template';
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition', attachment(`${name}.xlsx`, 'order-import-template.xlsx'))
        .send(data);
    },
    { response: fileAnswer(XLSX_TYPE, 'xlsx workbook') },
  );

  route(app, api.import, async (request, reply) => {
    const file = await readUploadedFile(request);
    const name = file.fileName.slice(0, 120);
    request.logContent = logText('log.text.order.importStarted', { name, bytes: file.data.length });
    const keepValid = request.query.keepValid ?? false;
    const op = operatorOf(request);
    // The same import is the same file's bytes with the same option (decision 0118); its name is not
    // part of it.
    const claim = claimOf(request, op.id, 'order.import', { file: createHash('sha256').update(file.data).digest('hex'), keepValid });
    const database = { target: config.database, limits: config.dbLimits };
    const { data: result, replayed } = await onceApart(db, claim, (guard) =>
      importSheetFile(db, database, file.data, op, localeOf(request), keepValid, guard),
    );
    if (!markReplay(request, reply, claim, replayed)) {
      request.logContent = importLogText(name, result, keepValid);
      request.logDetails = importLogDetails(result);
    }
    return ok(result);
  });

  route(
    app,
    api.export,
    async (request, reply) => {
      // Evidence as absolute links under the public base (decision 0051), signed for a stated time (decision 0082).
      const base = (config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
      const exported = await exportOrders(
        db,
        request.query,
        operatorOf(request),
        localeOf(request),
        (error) => request.log.error({ err: error, reqId: request.id }, 'order export failed'),
        { urls, base, ownHost: request.host },
      );
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition', attachment(exported.fileName, exported.asciiName))
        .header('cache-control', 'no-store')
        .send(exported.stream);
    },
    { response: fileAnswer(XLSX_TYPE, 'xlsx workbook') },
  );

  route(
    app,
    api.download,
    async (request, reply) => {
      const store = { blobs, maxImageBytes: config.uploads.maxImageBytes };
      // The public pages' base: PUBLIC_URL, else this request's origin (decision 0051).
      const publicBase = config.publicUrl ?? `${request.protocol}://${request.host}`;
      const zip = await orderZip(
        db,
        request.query.id,
        operatorOf(request),
        localeOf(request),
        store,
        request.host,
        (error) => request.log.error({ err: error, reqId: request.id }, 'order download failed'),
        publicBase,
      );
      return reply
        .type('application/zip')
        .header('content-disposition', attachment(zip.fileName, zip.fileName))
        .header('cache-control', 'no-store')
        .send(zip.stream);
    },
    { response: fileAnswer('application/zip', 'zip archive') },
  );
};

export default orderFileRoutes;
