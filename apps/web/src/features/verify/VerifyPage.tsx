import QRCode from 'antd/es/qr-code';
import { useTranslation } from 'react-i18next';
import { Status } from '@clearplay/contract/constants';
import { formatDate } from '../../lib/date.ts';
import { fetchCertificate, PublicFooter, PublicHeader, ResultTag, usePublicData, usePublicHead } from '../landing/index.ts';

/**
 * `/verify/:code` (public): the certificate of a public check — game, result, check
 * date, masked target, the service — and a QR code of this page's URL. An unknown code and a
 * private record get the same "no such certificate".
 */
export default function VerifyPage({ code }: { code: string }) {
  const { t } = useTranslation();
  const cert = usePublicData(() => fetchCertificate(code), code);
  const missing = cert.state === 'failed' && (cert.status === Status.NOT_FOUND || cert.status === Status.BAD_REQUEST);
  const url = `${window.location.origin}/verify/${encodeURIComponent(code.toUpperCase())}`;
  usePublicHead(`${t('public.verify.title')} ${code.toUpperCase()}`, t('public.verify.valid'));
  return (
    <div className="pub-page">
      <PublicHeader />
      <main className="pub-main">
        <section className="pub-hero">
          <h1>{t('public.verify.title')}</h1>
        </section>
        {cert.state === 'loading' && <p className="pub-muted">{t('public.verify.loading')}</p>}
        {missing && (
          <div className="pub-card" data-testid="verify-none">
            <h2 style={{ margin: '0 0 8px', fontSize: 20 }}>{t('public.verify.none')}</h2>
            <p>{t('public.verify.noneText', { code })}</p>
          </div>
        )}
        {cert.state === 'failed' && !missing && <p className="pub-alert pub-alert-error">{t('public.error', { msg: cert.message })}</p>}
        {cert.state === 'done' && (
          <div className="pub-card pub-cert" data-testid="verify-certificate">
            <div style={{ flex: '1 1 260px', minWidth: 0 }}>
              <p className="pub-alert" style={{ marginTop: 0 }}>
                {t('public.verify.valid')}
              </p>
              <dl className="pub-fields">
                <dt>{t('public.field.code')}</dt>
                <dd data-testid="verify-code">{cert.data.code}</dd>
                <dt>{t('public.field.result')}</dt>
                <dd>
                  <ResultTag result={cert.data.result} label={cert.data.resultLabel} listClass={cert.data.resultClass} />
                </dd>
                <dt>{t('public.field.game')}</dt>
                <dd>{cert.data.gameName}</dd>
                <dt>{t('public.field.date')}</dt>
                <dd>{formatDate(cert.data.checkedTime, 'day')}</dd>
                <dt>{t('public.field.target')}</dt>
                <dd data-testid="verify-target">{cert.data.maskedWechat}</dd>
                <dt>{t('public.field.service')}</dt>
                <dd>{cert.data.serviceName}</dd>
              </dl>
            </div>
            <div className="pub-qr">
              <QRCode value={url} size={160} bgColor="#fff" color="#000" />
              <span>{t('public.verify.qr')}</span>
            </div>
          </div>
        )}
      </main>
      <PublicFooter />
    </div>
  );
}
