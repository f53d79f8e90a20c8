import { useEffect } from 'react';
import { Outlet, useMatches, useNavigation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type NProgressModule from 'nprogress';
import 'nprogress/nprogress.css';
import { APP_NAME } from '../config/settings.ts';
import type { RouteHandle } from '../config/paths.ts';

// nprogress is loaded with the first navigation, not with the login page.
type NProgress = typeof NProgressModule;
let progress: Promise<NProgress> | null = null;
let wanted = false;
function loadProgress(): Promise<NProgress> {
  progress ??= import('nprogress').then((module) => {
    // A CommonJS module: the bundler hands it over as the default export.
    const nprogress = (module as unknown as { default?: NProgress }).default ?? module;
    // Spec §9: the progress bar starts at 0.08 and trickles every 800 ms.
    nprogress.configure({ minimum: 0.08, trickleSpeed: 800, showSpinner: false });
    return nprogress;
  });
  return progress;
}

/** Progress bar on navigations. */
function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  useEffect(() => {
    wanted = busy;
    if (!busy && !progress) return;
    void loadProgress().then((nprogress) => (wanted ? nprogress.start() : nprogress.done()));
  }, [busy]);
  return null;
}

/** "<translated route title> - ClearPlay" for the deepest matched route. */
export function useDocumentTitle() {
  const { t, i18n } = useTranslation();
  const matches = useMatches();
  const handle = [...matches].reverse().find((match) => (match.handle as RouteHandle | undefined)?.route)?.handle as
    RouteHandle | undefined;
  const locale = handle?.route.meta.locale;
  useEffect(() => {
    document.title = locale ? `${t(locale)} - ${APP_NAME}` : APP_NAME;
  }, [locale, t, i18n.language]);
}

/** The root route: every screen renders inside it. */
export function RootShell() {
  useDocumentTitle();
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}
