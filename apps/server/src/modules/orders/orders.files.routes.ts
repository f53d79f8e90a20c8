import { IdQuery, OrderExportQuery, OrderImportQuery, OrderImportResult } from '@clearplay/contract';
import type { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorEnvelope, ok, responses } from '../../lib/envelope.ts';
import { operatorOf, localeOf, type RouteDeps } from '../../http/route-context.ts';
import { createBlobStore, createEvidenceUrls } from '../uploads/uploads.service.ts';
import { orderZip } from './orders.download.ts';
import { exportOrders } from './orders.export.ts';
import { importTemplate } from './import/template.ts';
import { importSheetFile, stopImportThread } from './import/thread.ts';
import { IMPORT_FORM_LIMITS, readUploadedFile } from './import/upload.ts';
import { importLogDetails, importLogText } from './import/outcome.ts';
import { attachment, XLSX_TYPE } from './orders.sheet.ts';
import { logText } from '../../lib/log-text.ts';

const security = [{ bearer: [] }];
const tags = ['order'];

/** A file answer in the docs: the bytes on success, the JSON envelope on an error. */
const fileResponses = (type: string, description: string) =>
  ({
    200: { description, content: { [type]: { schema: Type.Unsafe<Buffer | Readable>({ type: 'string', format: 'binary' }) } } },
    '4xx': ErrorEnvelope,
    '5xx': ErrorEnvelope,
  }) as const;

/** Order files (PRODUCT.md "Orders"): import with its template, export, and an order's evidence ZIP. */
const orderFileRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  // Multipart bodies in this plugin only: the import reads its file with a size limit (import/upload.ts).
  await app.register(fastifyMultipart, { limits: IMPORT_FORM_LIMITS });
  const blobs = await createBlobStore(config);
  const urls = await createEvidenceUrls(config);
  // The import's worker thread (import/thread.ts) ends with the app.
  app.addHook('onClose', () => stopImportThread(db));

  app.get(
    '/admin/order/import/template',
    {
      config: { auth: 'user', permission: 'order:import' },
      schema: {
        tags,
        summary: 'The import template (xlsx), headers in the caller’s language',
        security,
        response: fileResponses(XLSX_TYPE, 'xlsx workbook'),
      },
    },
    async (request, reply) => {
      const locale = localeOf(request);
      const data = await importTemplate(db, locale);
      const name = locale === 'zh-CN' ? '订单导入模板' : 'order-import-template';
      return reply
        .type(XLSX_TYPE)
        .header('content-disposition', attachment(`${name}.xlsx`, 'order-import-template.xlsx'))
        .send(data);
    },
  );

  app.post(
    '/admin/order/import',
    {
      config: { auth: 'user', permission: 'order:import', log: { module: 'order', action: 'import' } },
      schema: {
        tags,
        summary: 'Import orders from an xlsx or csv file (multipart field "file"); all or nothing unless keepValid',
        security,
        querystring: OrderImportQuery,
        response: responses(OrderImportResult),
      },
    },
    async (request) => {
      const file = await readUploadedFile(request);
      const name = file.fileName.slice(0, 120);
      request.logContent = logText('log.text.order.importStarted', { name, bytes: file.data.length });
      const keepValid = request.query.keepValid ?? false;
      const database = { target: config.database, limits: config.dbLimits };
      const result = await importSheetFile(db, database, file.data, operatorOf(request), localeOf(request), keepValid);
      request.logContent = importLogText(name, result, keepValid);
      request.logDetails = importLogDetails(result);
      return ok(result);
    },
  );

  app.get(
    '/admin/order/export',
    {
      config: { auth: 'user', permission: 'order:export' },
      schema: {
        tags,
        summary: 'The orders the list shows for these filters, streamed as xlsx',
        security,
        querystring: OrderExportQuery,
        response: fileResponses(XLSX_TYPE, 'xlsx workbook'),
      },
    },
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
  );

  app.get(
    '/admin/order/download',
    {
      config: { auth: 'user', permission: 'order:download' },
      schema: {
        tags,
        summary: 'An order’s images by kind and a one-page summary, as a ZIP',
        security,
        querystring: IdQuery,
        response: fileResponses('application/zip', 'zip archive'),
      },
    },
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
  );
};

export default orderFileRoutes;
