import {
  DictDataCreateBody,
  DictDataItem,
  DictDataListQuery,
  DictDataTree,
  DictDataUpdateBody,
  DictIdParams,
  DictStore,
  DictTypeCreateBody,
  DictTypeItem,
  DictTypeListQuery,
  DictTypeParams,
  DictTypeUpdateBody,
  DictTypeWithData,
  Empty,
  Page,
} from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok, responses } from '../../lib/envelope.ts';
import type { RouteDeps } from '../../http/route-context.ts';
import * as dicts from './dicts.service.ts';

const security = [{ bearer: [] }];
const tags = ['dict'];

/** Dictionaries (spec §3, §7): the store every session loads, and the admin screen's calls. */
const dictRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/admin/dict/all',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Every enabled dictionary entry, flat and as trees', security, response: responses(DictStore) },
    },
    async () => ok(await dicts.getDictStore(db)),
  );

  app.get(
    '/admin/dict/type/list',
    {
      config: { auth: 'user', permission: 'dict:view' },
      schema: {
        tags,
        summary: 'Dictionary types, with their entry counts',
        security,
        querystring: DictTypeListQuery,
        response: responses(Page(DictTypeItem)),
      },
    },
    async (request) => ok(await dicts.listTypesPage(db, request.query)),
  );

  app.post(
    '/admin/dict/type',
    {
      config: { auth: 'user', permission: 'dict:create', log: { module: 'dict', action: 'createType' } },
      schema: { tags, summary: 'Create a dictionary type', security, body: DictTypeCreateBody, response: responses(DictTypeItem) },
    },
    async (request) => {
      const item = await dicts.createType(db, request.body);
      request.logContent = `dict type ${item.code} (#${item.id}): created`;
      return ok(item);
    },
  );

  app.put(
    '/admin/dict/type',
    {
      config: { auth: 'user', permission: 'dict:update', log: { module: 'dict', action: 'updateType' } },
      schema: {
        tags,
        summary: 'Update a dictionary type (a new code carries over to its entries)',
        security,
        body: DictTypeUpdateBody,
        response: responses(DictTypeItem),
      },
    },
    async (request) => {
      const { item, previousCode } = await dicts.updateType(db, request.body);
      const renamed = previousCode === item.code ? '' : `, code ${previousCode} → ${item.code}`;
      request.logContent = `dict type ${item.code} (#${item.id}): updated${renamed}, status ${item.status}`;
      return ok(item);
    },
  );

  app.delete(
    '/admin/dict/type/:id',
    {
      config: { auth: 'user', permission: 'dict:delete', log: { module: 'dict', action: 'deleteType' } },
      schema: { tags, summary: 'Delete a dictionary type and all its entries', security, params: DictIdParams, response: responses(Empty) },
    },
    async (request) => {
      const { code, entries } = await dicts.deleteType(db, request.params.id);
      request.logContent = `dict type ${code} (#${request.params.id}): deleted with ${entries} entries`;
      return ok(null);
    },
  );

  app.get(
    '/admin/dict/data/:type',
    {
      config: { auth: 'user', permission: 'dict:view' },
      schema: {
        tags,
        summary: "One type's entries (disabled included)",
        security,
        params: DictTypeParams,
        querystring: DictDataListQuery,
        response: responses(Page(DictDataItem)),
      },
    },
    async (request) => ok(await dicts.listDataPage(db, request.params.type, request.query)),
  );

  app.post(
    '/admin/dict/data',
    {
      config: { auth: 'user', permission: 'dict:create', log: { module: 'dict', action: 'createData' } },
      schema: { tags, summary: 'Create a dictionary entry', security, body: DictDataCreateBody, response: responses(DictDataItem) },
    },
    async (request) => {
      const item = await dicts.createData(db, request.body);
      request.logContent = `dict data ${item.typeCode}/${item.value} "${item.label}" (#${item.id}): created`;
      return ok(item);
    },
  );

  app.put(
    '/admin/dict/data',
    {
      config: { auth: 'user', permission: 'dict:update', log: { module: 'dict', action: 'updateData' } },
      schema: {
        tags,
        summary: 'Update a dictionary entry (the status toggle sends the status)',
        security,
        body: DictDataUpdateBody,
        response: responses(DictDataItem),
      },
    },
    async (request) => {
      const item = await dicts.updateData(db, request.body);
      request.logContent = `dict data ${item.typeCode}/${item.value} "${item.label}" (#${item.id}): updated, status ${item.status}`;
      return ok(item);
    },
  );

  app.delete(
    '/admin/dict/data/:id',
    {
      config: { auth: 'user', permission: 'dict:delete', log: { module: 'dict', action: 'deleteData' } },
      schema: {
        tags,
        summary: 'Delete a dictionary entry that has no children',
        security,
        params: DictIdParams,
        response: responses(Empty),
      },
    },
    async (request) => {
      const item = await dicts.deleteData(db, request.params.id);
      request.logContent = `dict data ${item.typeCode}/${item.value} "${item.label}" (#${item.id}): deleted`;
      return ok(null);
    },
  );

  app.get(
    '/admin/dict/type-data/all',
    {
      config: { auth: 'user', permission: 'dict:view' },
      schema: { tags, summary: 'Every type with every entry (admin view)', security, response: responses(Type.Array(DictTypeWithData)) },
    },
    async () => ok(await dicts.typesWithData(db)),
  );

  app.get(
    '/admin/dict/data/tree/:type',
    {
      // Like /admin/dict/all: enabled entries are what every signed-in screen shows.
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "One type's enabled entries as a tree",
        security,
        params: DictTypeParams,
        response: responses(DictDataTree),
      },
    },
    async (request) => ok(await dicts.dataTree(db, request.params.type)),
  );
};

export default dictRoutes;
