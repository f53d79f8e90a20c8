import { DictStore } from '@clearplay/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, responses } from '../../lib/envelope.ts';
import type { RouteDeps } from '../../routes.ts';
import { getDictStore } from './dicts.service.ts';

const dictRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/admin/dict/all',
    {
      config: { auth: 'user' },
      schema: { tags: ['dict'], summary: 'Every enabled dictionary entry, flat and as trees', security: [{ bearer: [] }], response: responses(DictStore) },
    },
    async () => ok(await getDictStore(db)),
  );
};

export default dictRoutes;
