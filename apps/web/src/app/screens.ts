import type { ComponentType } from 'react';
import type { ScreenName } from '../config/paths.ts';

type ScreenModule = () => Promise<{ default: ComponentType }>;

/**
 * The code of every screen of the route table (config/paths.ts), by route name, each
 * lazy-loaded (a chunk of its own). The only file that imports the screens: the router
 * (app/router.tsx) puts each on its route. A new screen: a name and a route in
 * config/paths.ts, its page here (the type asks for one per name).
 */
export const screens: Record<ScreenName, ScreenModule> = {
  // The public pages are their own entry (src/public.tsx, decision 0068): the app loads that document.
  index: () => import('./PublicDocument.tsx'),
  home: () => import('./PublicDocument.tsx'),
  linkstore: () => import('./PublicDocument.tsx'),
  verify: () => import('./PublicDocument.tsx'),
  login: () => import('../features/auth/LoginPage.tsx'),
  Workplace: () => import('../features/workplace/WorkplacePage.tsx'),
  Monitor: () => import('../features/monitor/MonitorPage.tsx'),
  DataAnalysis: () => import('../features/visit-stats/DataAnalysisPage.tsx'),
  Inspect: () => import('../features/orders/InspectPage.tsx'),
  User: () => import('../features/users/UsersPage.tsx'),
  Log: () => import('../features/logs/LogsPage.tsx'),
  Role: () => import('../features/roles/RolesPage.tsx'),
  Dict: () => import('../features/dicts/DictsPage.tsx'),
  Message: () => import('../features/messages/MessagePage.tsx'),
  UserInfo: () => import('../features/account/UserInfoPage.tsx'),
  UserSetting: () => import('../features/account/UserSettingPage.tsx'),
  Exception403: () => import('../features/exception/Exception403Page.tsx'),
  Exception404: () => import('../features/exception/Exception404Page.tsx'),
  Exception500: () => import('../features/exception/Exception500Page.tsx'),
  redirect: () => import('./RedirectPage.tsx'),
  notFound: () => import('../components/NotFound.tsx'),
  OrderForm: () => import('../features/orders/pages/OrderFormPage.tsx'),
  OrderProfile: () => import('../features/orders/pages/OrderProfilePage.tsx'),
  ResultSuccess: () => import('../features/orders/pages/ResultSuccessPage.tsx'),
  ResultFail: () => import('../features/orders/pages/ResultFailPage.tsx'),
};
