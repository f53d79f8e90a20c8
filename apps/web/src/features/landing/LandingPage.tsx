import { useEffect, useRef, useState, type FormEvent, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicOrder } from '@clearplay/contract';
import {
  charCount,
  cutToChars,
  formatCount,
  formatMoney,
  PUBLIC_LOOKUP_MAX_LENGTH,
  PUBLIC_LOOKUP_MIN_LENGTH,
  Status,
} from '@clearplay/contract/constants';
import { formatDate } from '../../lib/date.ts';
import { fetchFigures, fetchPrices, lookupChatId } from './api.ts';
import { PublicFooter, PublicHeader, ResultTag } from './PublicHeader.tsx';
import { PAGE_HEAD, usePublicHead, usePublicHref } from './site.ts';
import { usePublicData } from './usePublicData.ts';

/**
 * The chat ID is cut at its limit in characters, as the server counts it (code points): the
 * browser's `maxLength` counts UTF-16 units and would keep 32 emoji of 64. Not while an input
 * method composes (its end cuts).
 */
function keepLookupLength(event: SyntheticEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  if ((event.nativeEvent as InputEvent).isComposing) return;
  const cut = cutToChars(input.value, PUBLIC_LOOKUP_MAX_LENGTH);
  if (cut !== input.value) input.value = cut;
}

/** 24 px line icons for the steps (inline: no icon pack on the public pages). */
const ICONS: Record<string, ReactNode> = {
  book: <path d="M7 3v3M17 3v3M4 8h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Zm4 9 2 2 4-4" />,
  check: <path d="M3 5h18v11H3zM8 20h8M12 16v4M10 9l-2 2 2 2M14 9l2 2-2 2" />,
  record: <path d="M6 3h9l4 4v14H6zM14 3v5h5M9 13h7M9 17h5" />,
  verify: <path d="M12 3 5 6v5c0 4.5 3 8.5 7 10 4-1.5 7-5.5 7-10V6zM9 12l2 2 4-4" />,
};
const STEPS = ['book', 'check', 'record', 'verify'] as const;

function StepIcon({ name }: { name: string }) {
  return (
    <svg
      className="pub-icon"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {ICONS[name]}
    </svg>
  );
}

/** One public order: game, result tag, date, masked target and its certificate's code. */
export function PublicOrderCard({ order }: { order: PublicOrder }) {
  const { t } = useTranslation();
  const href = usePublicHref();
  return (
    <li className="pub-card" data-testid="public-lookup-item">
      <dl className="pub-fields">
        <dt>{t('public.field.result')}</dt>
        <dd>
          <ResultTag result={order.result} label={order.resultLabel} listClass={order.resultClass} />
        </dd>
        <dt>{t('public.field.game')}</dt>
        <dd>{order.gameName}</dd>
        <dt>{t('public.field.date')}</dt>
        <dd>{formatDate(order.checkedTime, 'day')}</dd>
        <dt>{t('public.field.target')}</dt>
        <dd>{order.maskedWechat}</dd>
        <dt>{t('public.field.code')}</dt>
        <dd>
          <a href={href(`/verify/${order.code}`)} data-testid="public-lookup-code">
            {order.code}
          </a>
        </dd>
      </dl>
    </li>
  );
}

type LookupState =
  | { state: 'idle' }
  | { state: 'busy' }
  | { state: 'short' }
  | { state: 'done'; id: string; list: PublicOrder[] }
  | { state: 'limited' }
  | { state: 'failed'; message: string };

function Lookup() {
  const { t } = useTranslation();
  const [result, setResult] = useState<LookupState>({ state: 'idle' });
  const form = useRef<HTMLFormElement>(null);
  // The input is uncontrolled: what a visitor typed into the prerendered form before the script
  // took over stays, and a submit public/boot.js held back meanwhile is made now.
  useEffect(() => {
    const root = document.getElementById('root');
    if (!root?.hasAttribute('data-submit-pending')) return;
    root.removeAttribute('data-submit-pending');
    form.current?.requestSubmit();
  }, []);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = cutToChars(String(new FormData(event.currentTarget).get('chatId') ?? '').trim(), PUBLIC_LOOKUP_MAX_LENGTH);
    if (charCount(id) < PUBLIC_LOOKUP_MIN_LENGTH) return setResult({ state: 'short' });
    setResult({ state: 'busy' });
    try {
      setResult({ state: 'done', id, list: (await lookupChatId(id)).list });
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      setResult(status === Status.TOO_MANY_REQUESTS ? { state: 'limited' } : { state: 'failed', message: (error as Error).message });
    }
  };
  return (
    <section className="pub-section" id="lookup" aria-labelledby="lookup-title">
      <h2 id="lookup-title">{t('public.lookup.title')}</h2>
      <p className="pub-muted">{t('public.lookup.text', { min: PUBLIC_LOOKUP_MIN_LENGTH })}</p>
      <form className="pub-form" ref={form} onSubmit={(e) => void submit(e)} noValidate>
        <label>
          {t('public.lookup.label')}
          <input
            data-testid="public-lookup-input"
            name="chatId"
            onInput={keepLookupLength}
            onCompositionEnd={keepLookupLength}
            autoComplete="off"
            spellCheck={false}
            placeholder={t('public.lookup.placeholder')}
          />
        </label>
        <button className="pub-button" type="submit" disabled={result.state === 'busy'} data-testid="public-lookup-submit">
          {t('public.lookup.submit')}
        </button>
      </form>
      <div aria-live="polite" data-testid="public-lookup-result">
        {result.state === 'short' && (
          <p className="pub-alert pub-alert-warning">{t('public.lookup.short', { min: PUBLIC_LOOKUP_MIN_LENGTH })}</p>
        )}
        {result.state === 'limited' && (
          <p className="pub-alert pub-alert-warning" data-testid="public-lookup-limited">
            {t('public.lookup.rateLimited')}
          </p>
        )}
        {result.state === 'failed' && <p className="pub-alert pub-alert-error">{t('public.lookup.failed', { msg: result.message })}</p>}
        {result.state === 'done' && result.list.length === 0 && (
          <p className="pub-alert" data-testid="public-lookup-none">
            {t('public.lookup.none', { id: result.id })}
          </p>
        )}
        {result.state === 'done' && result.list.length > 0 && (
          <>
            <p className="pub-alert">{t('public.lookup.found', { id: result.id, count: result.list.length })}</p>
            <ul className="pub-results">
              {result.list.map((order) => (
                <PublicOrderCard key={order.code} order={order} />
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}

function Prices() {
  const { t, i18n } = useTranslation();
  const prices = usePublicData(fetchPrices);
  if (prices.state !== 'done' || prices.data.list.length === 0) return null;
  return (
    <section className="pub-section" aria-labelledby="prices-title" data-testid="public-prices">
      <h2 id="prices-title">{t('public.prices.title')}</h2>
      <ul className="pub-grid">
        {prices.data.list.map((price) => (
          <li className="pub-card" key={price.label}>
            <h3>{price.label}</h3>
            <div className="pub-price">{formatMoney(price.price, i18n.language)}</div>
            {price.remark && <p>{price.remark}</p>}
          </li>
        ))}
      </ul>
      <p className="pub-muted">{t('public.prices.note')}</p>
    </section>
  );
}

function Figures() {
  const { t } = useTranslation();
  const figures = usePublicData(fetchFigures);
  if (figures.state !== 'done') return null;
  return (
    <section className="pub-section" aria-labelledby="figures-title" data-testid="public-figures">
      <h2 id="figures-title">{t('public.figures.title')}</h2>
      <ul className="pub-grid">
        <li className="pub-card">
          <div className="pub-figure">{formatCount(figures.data.checks)}</div>
          <p>{t('public.figures.checks')}</p>
        </li>
        <li className="pub-card">
          <div className="pub-figure">{formatCount(figures.data.cheaters)}</div>
          <p>{t('public.figures.cheaters')}</p>
        </li>
      </ul>
    </section>
  );
}

/**
 * `/` and `/home` (public): what the service does, how a check works, published
 * prices (hidden when none), the public look-up, trust figures, links to the link store and
 * to login. Plain elements and one CSS file: no antd component, chart or admin code.
 */
export default function LandingPage() {
  const { t } = useTranslation();
  usePublicHead(t(PAGE_HEAD.landing.title), t(PAGE_HEAD.landing.description));
  return (
    <div className="pub-page">
      <PublicHeader />
      <main className="pub-main">
        <section className="pub-hero">
          <h1>{t('public.hero.title')}</h1>
          <p>{t('public.hero.text')}</p>
          <a className="pub-button pub-button-link" href="#lookup">
            {t('public.hero.lookup')}
          </a>
        </section>
        <section className="pub-section" aria-labelledby="steps-title">
          <h2 id="steps-title">{t('public.steps.title')}</h2>
          <ol className="pub-grid">
            {STEPS.map((step) => (
              <li className="pub-card" key={step}>
                <StepIcon name={step} />
                <h3>{t(`public.steps.${step}.title`)}</h3>
                <p>{t(`public.steps.${step}.text`)}</p>
              </li>
            ))}
          </ol>
        </section>
        <Prices />
        <Lookup />
        <Figures />
      </main>
      <PublicFooter />
    </div>
  );
}
