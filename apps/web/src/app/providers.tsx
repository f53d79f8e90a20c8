import type { ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { Provider as MotionProvider } from '@rc-component/motion';
import antdZhCN from 'antd/es/locale/zh_CN';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { useTranslation } from 'react-i18next';
import { beforeShowing, type Locale } from '../lib/i18n.ts';
import { useAppState } from '../lib/settings.ts';
import { themeConfig, useReducedMotion } from '../lib/theme.ts';

/**
 * antd's texts per language: the default's in the entry, English's loaded with the English
 * messages before they show (its own small chunk, not in the login page's first load).
 */
const ANTD_LOCALES: Partial<Record<Locale, AntdLocale>> = { 'zh-CN': antdZhCN };
beforeShowing(async (locale) => {
  if (locale === 'en-US' && !ANTD_LOCALES[locale]) ANTD_LOCALES[locale] = (await import('antd/es/locale/en_US')).default;
});

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
