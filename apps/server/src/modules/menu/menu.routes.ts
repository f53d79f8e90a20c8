import { menuEndpoints as api } from '@clearplay/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint.ts';
import { ok } from '../../lib/envelope.ts';
import { requireUser, type RouteDeps } from '../../http/route-context.ts';
import { menuFor } from './menu.service.ts';

/** `POST /menu`: the server menu (settings drawer "menu from server"; docs/product.md "The back office"). */
const menuRoutes: FastifyPluginAsync<RouteDeps> = async (app) => {
  route(app, api.menu, async (request) => ok(menuFor(requireUser(request))));
};

export default menuRoutes;
