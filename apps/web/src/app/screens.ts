import type { ComponentType } from 'react';
import type { ScreenName } from '../config/paths.ts';

type ScreenModule = () => Promise<{ default: ComponentType }>;

/**
 * The signed-in screens' code and the layout's: their own small chunk (app/signed-in-screens.ts),
 * which holds the list of chunks each screen needs (Vite preloads them side by side). In the entry,
 * those lists were 2.3 KB gzip of the login page's first load; the login form fetches this chunk
 * once the user starts on the form (lib/warm-up.ts `warmUpCode`), before the sign-in click needs
 * it (decision 0112).
 */
export const signedIn = () => import('./signed-in-screens.ts');

/**
 * The code of every screen of the route table (config/paths.ts), by route name, each
 * lazy-loaded (a chunk of its own). With app/signed-in-screens.ts, the only file that imports
 * the screens: the router (app/router.tsx) puts each on its route. A new screen: a name and a
 * route in config/paths.ts, its page here (the type asks for one per name), a signed-in one's
 * import in app/signed-in-screens.ts.
 */
export const screens: Record<ScreenName, ScreenModule> = {
  // The public pages are their own entry (src/public.tsx, decision 0068): the app loads that document.
  index: () => import('./PublicDocument.tsx'),
  home: () => import('./PublicDocument.tsx'),
  linkstore: () => import('./PublicDocument.tsx'),
  verify: () => import('./PublicDocument.tsx'),
  login: () => import('../features/auth/LoginPage.tsx'),
  Workplace: async () => (await signedIn()).Workplace(),
  Monitor: async () => (await signedIn()).Monitor(),
  DataAnalysis: async () => (await signedIn()).DataAnalysis(),
  Inspect: async () => (await signedIn()).Inspect(),
  User: async () => (await signedIn()).User(),
  Log: async () => (await signedIn()).Log(),
  Role: async () => (await signedIn()).Role(),
  Dict: async () => (await signedIn()).Dict(),
  Message: async () => (await signedIn()).Message(),
  UserInfo: async () => (await signedIn()).UserInfo(),
  UserSetting: async () => (await signedIn()).UserSetting(),
  Exception403: async () => (await signedIn()).Exception403(),
  Exception404: async () => (await signedIn()).Exception404(),
  Exception500: async () => (await signedIn()).Exception500(),
  redirect: async () => (await signedIn()).redirect(),
  notFound: () => import('../components/NotFound.tsx'),
  OrderForm: async () => (await signedIn()).OrderForm(),
  OrderProfile: async () => (await signedIn()).OrderProfile(),
  ResultSuccess: async () => (await signedIn()).ResultSuccess(),
  ResultFail: async () => (await signedIn()).ResultFail(),
};
