import { dictEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import type { RouteDeps } from '../../http/route-context.ts';
import * as dicts from './dicts.service.ts';
import { logText } from '../../lib/log-text.ts';

/**
 * A dictionary entry in a log line: its type and value (codes), and its label in both languages,
 * so the line names it in the reader's language (lib/told.ts).
 */
const entryParams = (item: { typeCode: string; value: string; label: string; labelEn: string; id: number }) => ({
  type: item.typeCode,
  value: item.value,
  label: item.label,
  labelEn: item.labelEn,
  id: item.id,
});

/** Dictionaries: the store every session loads, and the admin screen's calls. */
const dictRoutes: FastifyPluginAsync<RouteDeps> = async (app, { db }) => {
  route(app, api.all, async () => ok(await dicts.getDictStore(db)));

  route(app, api.typeList, async (request) => ok(await dicts.listTypesPage(db, request.query)));

  route(app, api.createType, async (request) => {
    const item = await dicts.createType(db, request.body);
    request.logContent = logText('log.text.dict.typeCreated', { code: item.code, id: item.id });
    return ok(item);
  });

  route(app, api.updateType, async (request) => {
    const { item, previousCode } = await dicts.updateType(db, request.body);
    const renamed = previousCode !== item.code && {
      key: 'log.text.part.codeRenamed' as const,
      params: { from: previousCode, to: item.code },
    };
    request.logContent = logText('log.text.dict.typeUpdated', { code: item.code, id: item.id, status: item.status }, renamed);
    return ok(item);
  });

  route(app, api.deleteType, async (request) => {
    const { code, entries } = await dicts.deleteType(db, request.params.id);
    request.logContent = logText('log.text.dict.typeDeleted', { code, id: request.params.id, count: entries });
    return ok(null);
  });

  route(app, api.dataList, async (request) => ok(await dicts.listDataPage(db, request.params.type, request.query)));

  route(app, api.createData, async (request) => {
    const item = await dicts.createData(db, request.body);
    request.logContent = logText('log.text.dict.dataCreated', entryParams(item));
    return ok(item);
  });

  route(app, api.updateData, async (request) => {
    const item = await dicts.updateData(db, request.body);
    request.logContent = logText('log.text.dict.dataUpdated', { ...entryParams(item), status: item.status });
    return ok(item);
  });

  route(app, api.deleteData, async (request) => {
    const item = await dicts.deleteData(db, request.params.id);
    request.logContent = logText('log.text.dict.dataDeleted', entryParams(item));
    return ok(null);
  });

  route(app, api.typesWithData, async () => ok(await dicts.typesWithData(db)));

  route(app, api.dataTree, async (request) => ok(await dicts.dataTree(db, request.params.type)));
};

export default dictRoutes;
