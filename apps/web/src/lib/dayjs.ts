import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { currentLocale, i18n, type Locale } from './i18n.ts';

/**
 * dayjs following the app language. Import dayjs from here (not from 'dayjs') so the locale
 * is set; it is kept out of the login page's first load on purpose.
 */
const DAYJS_LOCALE: Record<Locale, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

dayjs.locale(DAYJS_LOCALE[currentLocale()]);
i18n.on('languageChanged', () => {
  dayjs.locale(DAYJS_LOCALE[currentLocale()]);
});

export default dayjs;
