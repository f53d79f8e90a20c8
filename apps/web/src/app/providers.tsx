import type { ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { Provider as MotionProvider } from '@rc-component/motion';
import antdZhCN from 'antd/locale/zh_CN';
import antdEnUS from 'antd/locale/en_US';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../lib/i18n.ts';
import { useAppState } from '../lib/settings.ts';
import { themeConfig, useReducedMotion } from '../lib/theme.ts';

const ANTD_LOCALES = { 'zh-CN': antdZhCN, 'en-US': antdEnUS } satisfies Record<Locale, unknown>;

/**
 * What every screen gets: antd's theme (dark algorithm, the theme colour's shades, no animations
 * when the system asks for reduced motion) and locale. The colour-weak filter, data-theme and the
 * shades' CSS variables are set on <html> by lib/settings.ts (and before paint by public/boot.js).
 * TanStack Query's provider sits in the default layout (app/layout/DefaultLayout.tsx), not
 * here, to keep it out of the login page's first load.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const theme = useAppState((s) => s.theme);
  const themeColor = useAppState((s) => s.themeColor);
  const reducedMotion = useReducedMotion();
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
