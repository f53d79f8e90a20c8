import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageKey } from '../../../locales/zh-CN.ts';

const SLOGANS: ReadonlyArray<{ title: MessageKey; sub: MessageKey }> = [
  { title: 'login.banner.slogan1.title', sub: 'login.banner.slogan1.sub' },
  { title: 'login.banner.slogan2.title', sub: 'login.banner.slogan2.sub' },
  { title: 'login.banner.slogan3.title', sub: 'login.banner.slogan3.sub' },
];

const ROTATE_MS = 5000;

/** The login banner: slogans rotating every 5 s (plain CSS, no carousel library). */
export function LoginBanner() {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % SLOGANS.length), ROTATE_MS);
    return () => window.clearInterval(timer);
  }, [index]);
  const current = SLOGANS[index] ?? SLOGANS[0]!;
  return (
    <aside className="login-banner" aria-live="polite">
      <div className="login-banner-art" aria-hidden="true">
        <svg viewBox="0 0 200 160" width="220" height="176">
          <rect x="20" y="20" width="160" height="100" rx="10" fill="rgba(255,255,255,0.14)" />
          <rect x="34" y="34" width="132" height="72" rx="4" fill="rgba(255,255,255,0.2)" />
          <path d="M70 72l18 18 42-42" fill="none" stroke="#fff" strokeWidth="10" strokeLinecap="round" strokeLinejoin="round" />
          <rect x="80" y="124" width="40" height="8" rx="4" fill="rgba(255,255,255,0.3)" />
        </svg>
      </div>
      <div key={index} className="login-slogan">
        <h2>{t(current.title)}</h2>
        <p>{t(current.sub)}</p>
      </div>
      <div className="login-dots">
        {SLOGANS.map((slogan, i) => (
          <button
            key={slogan.title}
            type="button"
            className={i === index ? 'login-dot active' : 'login-dot'}
            aria-label={t(slogan.title)}
            aria-pressed={i === index}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
    </aside>
  );
}
