import {
  IdQuery,
  IdsBody,
  OrderCreateBody,
  OrderDeleteResult,
  OrderItem,
  OrderListQuery,
  OrderPriceQuery,
  OrderPrices,
  OrderProfile,
  OrderUpdateBody,
  Page,
} from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import { localeOf, operatorOf, type RouteDeps } from '../../http/route-context.ts';
import { createEvidenceUrls } from '../uploads/uploads.service.ts';
import { changedMacNote, markRepeatTargets } from './orders.history.ts';
import { withSignedImages } from './orders.images.ts';
import { orderProfile } from './orders.profile.ts';
import * as orders from './orders.service.ts';

const security = [{ bearer: [] }];
const tags = ['order'];

/** Detection orders (spec §3 Order; PRODUCT.md "Orders"). Import, export and download: orders.files.routes.ts. */
const orderRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db, config }) => {
  // Evidence goes out signed for a short while, to the callers who may see the order (decision 0082).
  const urls = await createEvidenceUrls(config);
  const signed = <T extends OrderItem>(item: T, host: string): T => withSignedImages(item, urls, host);
  app.get(
    '/admin/order/list',
    {
      config: { auth: 'user', permission: 'order:view' },
      schema: {
        tags,
        summary: 'Orders the caller may see, newest first, with filters',
        security,
        querystring: OrderListQuery,
        response: responses(Page(OrderItem)),
      },
    },
    async (request) => {
      const page = await orders.listOrders(db, request.query, operatorOf(request));
      const list = await markRepeatTargets(db, page.list, operatorOf(request));
      return ok({ ...page, list: list.map((item) => signed(item, request.host)) });
    },
  );

  app.get(
    '/admin/order/detail',
    {
      config: { auth: 'user', permission: 'order:view' },
      schema: {
        tags,
        summary: 'One order (reduced view for another shop’s public order)',
        security,
        querystring: IdQuery,
        response: responses(OrderItem),
      },
    },
    async (request) => ok(signed(await orders.orderDetail(db, request.query.id, operatorOf(request)), request.host)),
  );

  app.get(
    '/admin/order/profile',
    {
      config: { auth: 'user', permission: 'order:view' },
      schema: {
        tags,
        summary: 'An order’s profile page: the order, its verification URL and its ledger entries',
        security,
        querystring: IdQuery,
        response: responses(OrderProfile),
      },
    },
    // The public pages' base: PUBLIC_URL, else this request's origin (decision 0051, as the ZIP).
    async (request) => {
      const profile = await orderProfile(
        db,
        request.query.id,
        operatorOf(request),
        localeOf(request),
        config.publicUrl ?? `${request.protocol}://${request.host}`,
      );
      return ok({ ...profile, order: signed(profile.order, request.host) });
    },
  );

  app.get(
    '/admin/order/price',
    {
      config: { auth: 'user', permission: ['order:create', 'order:update'] },
      schema: {
        tags,
        summary: "A client shop's price per result (fills the order form's amount)",
        security,
        querystring: OrderPriceQuery,
        response: responses(OrderPrices),
      },
    },
    async (request) => ok(await orders.orderPrices(db, request.query.userId)),
  );

  app.post(
    '/admin/order/create',
    {
      config: { auth: 'user', permission: 'order:create', log: { module: 'order', action: 'create' } },
      schema: {
        tags,
        summary: "Record an order and charge the client shop's ledger",
        security,
        body: OrderCreateBody,
        response: responses(OrderItem),
      },
    },
    async (request) => {
      const item = await orders.createOrder(db, request.body, operatorOf(request));
      request.logContent = `order ${item.code} (#${item.id}): ${item.objWechat}, result ${item.result}, client #${item.userId}, ${orders.formatFen(item.amount ?? 0)}${changedMacNote(request.body)}`;
      return ok(signed(item, request.host));
    },
  );

  app.post(
    '/admin/order/update',
    {
      config: { auth: 'user', permission: 'order:update', log: { module: 'order', action: 'update' } },
      schema: {
        tags,
        summary: 'Edit an order; a changed amount or client posts the difference to the ledger',
        security,
        body: OrderUpdateBody,
        response: responses(OrderItem),
      },
    },
    async (request) => {
      const { item, changes } = await orders.updateOrder(db, request.body, operatorOf(request));
      request.logContent = `order ${item.code} (#${item.id}): updated${changes.length > 0 ? `, ${changes.join(', ')}` : ''}${changedMacNote(request.body)}`;
      return ok(signed(item, request.host));
    },
  );

  app.post(
    '/admin/order/delete',
    {
      config: { auth: 'user', permission: 'order:delete', log: { module: 'order', action: 'delete' } },
      schema: {
        tags,
        summary: 'Delete orders and reverse their charges (all or nothing)',
        security,
        body: IdsBody,
        response: responses(OrderDeleteResult),
      },
    },
    async (request) => {
      const codes = await orders.deleteOrders(db, request.body.ids, operatorOf(request));
      request.logContent = `orders deleted (${codes.length}): ${codes.join(', ').slice(0, 400)}`;
      return ok({ deleted: codes.length });
    },
  );
};

export default orderRoutes;
