import { useEffect, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { Provider as MotionProvider } from '@rc-component/motion';
import antdZhCN from 'antd/locale/zh_CN';
import antdEnUS from 'antd/locale/en_US';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../lib/i18n.ts';
import { useAppState } from '../lib/settings.ts';
import { themeConfig, useReducedMotion } from '../lib/theme.ts';

const ANTD_LOCALES = { 'zh-CN': antdZhCN, 'en-US': antdEnUS } satisfies Record<Locale, unknown>;

/** Colour-weak mode (spec §4, §9): an 80% invert filter on the whole page. */
function useColorWeak(colorWeak: boolean) {
  useEffect(() => {
    document.body.style.filter = colorWeak ? 'invert(80%)' : '';
  }, [colorWeak]);
}

/**
 * What every screen gets: antd's theme (dark algorithm, primary colour, no animations when the
 * system asks for reduced motion) and locale.
 * TanStack Query's provider sits in the default layout (app/layout/DefaultLayout.tsx), not
 * here, to keep it out of the login page's first load.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const theme = useAppState((s) => s.theme);
  const themeColor = useAppState((s) => s.themeColor);
  const colorWeak = useAppState((s) => s.colorWeak);
  const reducedMotion = useReducedMotion();
  useColorWeak(colorWeak);
  const locale = ANTD_LOCALES[i18n.language as Locale] ?? antdZhCN;

  return (
    // Reduced motion goes to antd's animation layer (rc-motion) directly, not through the theme's
    // `motion` token: antd wraps the tree in a provider when that token changes, which would
    // remount every screen (and lose a form typed into before hydration) once it is read.
    <MotionProvider motion={!reducedMotion}>
      <ConfigProvider theme={themeConfig({ theme, themeColor })} locale={locale}>
        {children}
      </ConfigProvider>
    </MotionProvider>
  );
}
