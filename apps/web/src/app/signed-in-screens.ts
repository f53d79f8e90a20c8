/**
 * The signed-in screens of the route table, each lazy-loaded, and the layout around them: the
 * loaders app/screens.ts calls for these names (and app/router.tsx for the layout). A chunk of
 * its own, out of the login page's first load: each import here carries the list of the chunks
 * its screen needs, preloaded side by side when it runs (decision 0112).
 */
import { loadAntdStylesheet } from './layout/antd-stylesheet.ts';

/** The layout's code with antd's static stylesheet (decision 0120): it renders with antd's zero-runtime mode. */
export const layout = () => Promise.all([import('./layout/DefaultLayout.tsx'), loadAntdStylesheet()]).then(([module]) => module);
export const Workplace = () => import('../features/workplace/WorkplacePage.tsx');
export const Monitor = () => import('../features/monitor/MonitorPage.tsx');
export const DataAnalysis = () => import('../features/visit-stats/DataAnalysisPage.tsx');
export const Inspect = () => import('../features/orders/InspectPage.tsx');
export const User = () => import('../features/users/UsersPage.tsx');
export const Log = () => import('../features/logs/LogsPage.tsx');
export const Role = () => import('../features/roles/RolesPage.tsx');
export const Dict = () => import('../features/dicts/DictsPage.tsx');
export const Message = () => import('../features/messages/MessagePage.tsx');
export const UserInfo = () => import('../features/account/UserInfoPage.tsx');
export const UserSetting = () => import('../features/account/UserSettingPage.tsx');
export const Exception403 = () => import('../features/exception/Exception403Page.tsx');
export const Exception404 = () => import('../features/exception/Exception404Page.tsx');
export const Exception500 = () => import('../features/exception/Exception500Page.tsx');
export const redirect = () => import('./RedirectPage.tsx');
export const OrderForm = () => import('../features/orders/pages/OrderFormPage.tsx');
export const OrderProfile = () => import('../features/orders/pages/OrderProfilePage.tsx');
export const ResultSuccess = () => import('../features/orders/pages/ResultSuccessPage.tsx');
export const ResultFail = () => import('../features/orders/pages/ResultFailPage.tsx');

/**
 * The data a screen shows first, asked for by its route's loader once the guard let the user in:
 * beside the screen's code and the layout's first render, not after them (decision 0117).
 */
export const screenData: Readonly<Record<string, () => Promise<void>>> = {
  Workplace: async () => (await import('../features/workplace/api/workplace.ts')).prefetchWorkplace(),
};
