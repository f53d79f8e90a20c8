import { orderEndpoints as api, type OrderItem } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { localeOf, operatorOf, type RouteDeps } from '../../http/route-context.ts';
import { createEvidenceUrls } from '../uploads/uploads.service.ts';
import { changedMacNote, markRepeatTargets } from './history/orders.history.ts';
import { withSignedImages } from './orders.images.ts';
import { orderProfile } from './profile/orders.profile.ts';
import * as orders from './orders.service.ts';
import { logText } from '../../lib/log-text.ts';
import { claimOf, markReplay, once } from '../idempotency/idempotency.service.ts';

/** Detection orders (docs/product.md "Orders"). Import, export and download: files/orders.files.routes.ts. */
const orderRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db, config }) => {
  // Evidence goes out signed for a short while, to the callers who may see the order (decision 0082).
  const urls = await createEvidenceUrls(config);
  const signed = <T extends OrderItem>(item: T, host: string): T => withSignedImages(item, urls, host);

  route(app, api.list, async (request) => {
    const page = await orders.listOrders(db, request.query, operatorOf(request));
    const list = await markRepeatTargets(db, page.list, operatorOf(request));
    return ok({ ...page, list: list.map((item) => signed(item, request.host)) });
  });

  route(app, api.detail, async (request) => ok(signed(await orders.orderDetail(db, request.query.id, operatorOf(request)), request.host)));

  // The public pages' base: PUBLIC_URL, else this request's origin (decision 0051, as the ZIP).
  route(app, api.profile, async (request) => {
    const profile = await orderProfile(
      db,
      request.query.id,
      operatorOf(request),
      localeOf(request),
      config.publicUrl ?? `${request.protocol}://${request.host}`,
    );
    return ok({ ...profile, order: signed(profile.order, request.host) });
  });

  route(app, api.price, async (request) => ok(await orders.orderPrices(db, request.query.userId)));

  // With an Idempotency-Key, the same create sent again is answered again, not charged twice (decision 0109).
  route(app, api.create, async (request, reply) => {
    const op = operatorOf(request);
    const claim = claimOf(request, op.id, 'order.create');
    const { data: item, replayed } = await once(db, claim, (trx) => orders.recordOrder(trx, request.body, op));
    if (!markReplay(request, reply, claim, replayed))
      request.logContent = logText('log.text.order.created', orders.createdLogParams(item), changedMacNote(request.body));
    // Stored unsigned: its evidence links are signed afresh for each answer.
    return ok(signed(item, request.host));
  });

  route(app, api.update, async (request) => {
    const { item, changes } = await orders.updateOrder(db, request.body, operatorOf(request));
    request.logContent = logText('log.text.order.updated', { code: item.code, id: item.id }, ...changes, changedMacNote(request.body));
    return ok(signed(item, request.host));
  });

  route(app, api.delete, async (request) => {
    const codes = await orders.deleteOrders(db, request.body.ids, operatorOf(request));
    request.logContent = logText('log.text.order.deleted', { count: codes.length, codes: codes.join(', ').slice(0, 400) });
    return ok({ deleted: codes.length });
  });
};

export default orderRoutes;
