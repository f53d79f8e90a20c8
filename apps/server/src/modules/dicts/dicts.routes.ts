import { dictEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import type { RouteDeps } from '../../http/route-context.ts';
import * as dicts from './dicts.service.ts';

/** Dictionaries (spec §3, §7): the store every session loads, and the admin screen's calls. */
const dictRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.all, async () => ok(await dicts.getDictStore(db)));

  route(app, api.typeList, async (request) => ok(await dicts.listTypesPage(db, request.query)));

  route(app, api.createType, async (request) => {
    const item = await dicts.createType(db, request.body);
    request.logContent = `dict type ${item.code} (#${item.id}): created`;
    return ok(item);
  });

  route(app, api.updateType, async (request) => {
    const { item, previousCode } = await dicts.updateType(db, request.body);
    const renamed = previousCode === item.code ? '' : `, code ${previousCode} → ${item.code}`;
    request.logContent = `dict type ${item.code} (#${item.id}): updated${renamed}, status ${item.status}`;
    return ok(item);
  });

  route(app, api.deleteType, async (request) => {
    const { code, entries } = await dicts.deleteType(db, request.params.id);
    request.logContent = `dict type ${code} (#${request.params.id}): deleted with ${entries} entries`;
    return ok(null);
  });

  route(app, api.dataList, async (request) => ok(await dicts.listDataPage(db, request.params.type, request.query)));

  route(app, api.createData, async (request) => {
    const item = await dicts.createData(db, request.body);
    request.logContent = `dict data ${item.typeCode}/${item.value} "${item.label}" (#${item.id}): created`;
    return ok(item);
  });

  route(app, api.updateData, async (request) => {
    const item = await dicts.updateData(db, request.body);
    request.logContent = `dict data ${item.typeCode}/${item.value} "${item.label}" (#${item.id}): updated, status ${item.status}`;
    return ok(item);
  });

  route(app, api.deleteData, async (request) => {
    const item = await dicts.deleteData(db, request.params.id);
    request.logContent = `dict data ${item.typeCode}/${item.value} "${item.label}" (#${item.id}): deleted`;
    return ok(null);
  });

  route(app, api.typesWithData, async () => ok(await dicts.typesWithData(db)));

  route(app, api.dataTree, async (request) => ok(await dicts.dataTree(db, request.params.type)));
};

export default dictRoutes;
