/**
 * Every endpoint of the API, declared once (decision 0096). Grouped by module noun; the web
 * imports the group it calls (e.g. `dictEndpoints`), so a screen's chunk carries only its own
 * declarations. `endpoints` gathers every group for the server's checks and the OpenAPI
 * document; `endpointList` flattens it with each declaration's name (`dicts.typeList`).
 */
import { dictEndpoints } from './dicts.ts';
import { roleEndpoints } from './roles.ts';
import { logEndpoints } from './logs.ts';
import { announcementEndpoints } from './announcements.ts';
import { workplaceEndpoints } from './workplace.ts';
import { ledgerEndpoints } from './ledger.ts';
import { menuEndpoints } from './menu.ts';
import { orderEndpoints } from './orders.ts';
import { viewAsEndpoints } from './view-as.ts';
import { healthEndpoints } from './health.ts';
import { messageEndpoints } from './messages.ts';
import { authEndpoints } from './auth.ts';
import { sessionEndpoints } from './session.ts';
import { loginStepEndpoints } from './login-steps.ts';
import { userEndpoints } from './users.ts';
import { accountEndpoints } from './account.ts';
import { uploadEndpoints } from './uploads.ts';
import { trackingEndpoints } from './tracking.ts';
import { visitStatEndpoints } from './visit-stats.ts';
import { monitorEndpoints } from './monitor.ts';
import { publicEndpoints } from './public.ts';
import type { Endpoint } from './endpoint.ts';

export * from './endpoint.ts';
export { dictEndpoints } from './dicts.ts';
export { roleEndpoints } from './roles.ts';
export { logEndpoints } from './logs.ts';
export { announcementEndpoints } from './announcements.ts';
export { workplaceEndpoints } from './workplace.ts';
export { ledgerEndpoints } from './ledger.ts';
export { menuEndpoints } from './menu.ts';
export { orderEndpoints } from './orders.ts';
export { viewAsEndpoints } from './view-as.ts';
export { healthEndpoints } from './health.ts';
export { messageEndpoints } from './messages.ts';
export { authEndpoints } from './auth.ts';
export { sessionEndpoints } from './session.ts';
export { loginStepEndpoints } from './login-steps.ts';
export { userEndpoints } from './users.ts';
export { accountEndpoints } from './account.ts';
export { uploadEndpoints } from './uploads.ts';
export { trackingEndpoints } from './tracking.ts';
export { visitStatEndpoints } from './visit-stats.ts';
export { monitorEndpoints } from './monitor.ts';
export { publicEndpoints } from './public.ts';

export const endpoints = {
  dicts: dictEndpoints,
  roles: roleEndpoints,
  logs: logEndpoints,
  announcements: announcementEndpoints,
  workplace: workplaceEndpoints,
  ledger: ledgerEndpoints,
  menu: menuEndpoints,
  orders: orderEndpoints,
  viewAs: viewAsEndpoints,
  health: healthEndpoints,
  messages: messageEndpoints,
  auth: authEndpoints,
  session: sessionEndpoints,
  loginSteps: loginStepEndpoints,
  users: userEndpoints,
  account: accountEndpoints,
  uploads: uploadEndpoints,
  tracking: trackingEndpoints,
  visitStats: visitStatEndpoints,
  monitor: monitorEndpoints,
  public: publicEndpoints,
} satisfies Record<string, Record<string, Endpoint>>;

/** Every declaration with its name, `group.call`. */
export const endpointList = (): { name: string; endpoint: Endpoint }[] =>
  Object.entries(endpoints).flatMap(([group, calls]) =>
    Object.entries(calls).map(([call, declared]) => ({ name: `${group}.${call}`, endpoint: declared as Endpoint })),
  );
