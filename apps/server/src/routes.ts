/**
 * The API's table of contents: every module's routes, registered under /api.
 * Adding a module = one line here.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './http/route-context.ts';
import announcementRoutes from './modules/announcements/announcements.routes.ts';
import accountRoutes from './modules/account/account.routes.ts';
import authRoutes from './modules/auth/auth.routes.ts';
import dictRoutes from './modules/dicts/dicts.routes.ts';
import healthRoutes from './modules/health/health.routes.ts';
import ledgerRoutes from './modules/ledger/ledger.routes.ts';
import logRoutes from './modules/logs/logs.routes.ts';
import monitorRoutes from './modules/monitor/monitor.routes.ts';
import messageRoutes from './modules/messages/messages.routes.ts';
import menuRoutes from './modules/menu/menu.routes.ts';
import orderFileRoutes from './modules/orders/files/orders.files.routes.ts';
import orderHistoryRoutes from './modules/orders/history/orders.history.routes.ts';
import orderRoutes from './modules/orders/orders.routes.ts';
import publicRoutes from './modules/public/public.routes.ts';
import roleRoutes from './modules/roles/roles.routes.ts';
import trackingRoutes from './modules/tracking/tracking.routes.ts';
import uploadRoutes from './modules/uploads/uploads.routes.ts';
import userRoutes from './modules/users/users.routes.ts';
import workplaceRoutes from './modules/workplace/workplace.routes.ts';
import viewAsRoutes from './modules/view-as/view-as.routes.ts';

export const API_PREFIX = '/api';

export const modules = [
  healthRoutes, //  GET  /api/health · GET /api/ready
  authRoutes, //    POST /api/admin/user/login · GET /api/admin/user/logout · GET /api/admin/user/info
  dictRoutes, //    GET /api/admin/dict/all · /api/admin/dict/type… · /api/admin/dict/data… · /api/admin/dict/type-data/all
  userRoutes, //    /api/admin/user/{list,search,create,update,resetPassword,setUserStatus,delete,subscriptions} · /api/admin/setSubscription · /api/admin/cancelSubscription
  roleRoutes, //    /api/admin/role/{list,all,create,update,delete}
  logRoutes, //     GET  /api/admin/log/list · GET /api/admin/log/detail
  orderRoutes, //   /api/admin/order/{list,detail,price,create,update,delete}
  orderFileRoutes, // GET /api/admin/order/import/template · POST /api/admin/order/import · GET /api/admin/order/{export,download}
  orderHistoryRoutes, // GET /api/admin/order/history
  ledgerRoutes, //  POST /api/admin/user/recharge · GET /api/admin/user/ledger
  uploadRoutes, //  GET  /api/admin/upload/token
  workplaceRoutes, // GET /api/admin/workplace · GET /api/admin/analysis/orders
  announcementRoutes, // GET /api/admin/announcement/{list,delete} · POST /api/admin/announcement/add
  trackingRoutes, // POST /api/visit-stats/create · POST /api/analytics/event · GET /api/admin/visit-stats/overview · GET /api/admin/user/session
  monitorRoutes, //  GET  /api/admin/monitor
  publicRoutes, //  GET /api/public/{lookup,verify/:code,links,prices,figures}
  messageRoutes, // GET /api/admin/message/{list,unread} · POST /api/admin/message/read
  accountRoutes, // /api/admin/account/{profile,password,logins,sessions,sessions/end-others,ledger,subscriptions}
  menuRoutes, //    POST /api/menu
  viewAsRoutes, //  POST /api/admin/account/view-as · POST /api/admin/account/view-as/end
] as const;

export async function registerRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  for (const plugin of modules) await app.register(plugin, { prefix: API_PREFIX, ...deps });
}
