import { useTranslation } from 'react-i18next';
import type { PublicLink, PublicLinkGroup } from '@clearplay/contract';
import { LinkIcon } from './LinkIcon.tsx';
import { fetchLinks, PAGE_HEAD, PublicFooter, PublicHeader, usePublicData, usePublicHead } from '../landing/index.ts';

function LinkItem({ link }: { link: PublicLink }) {
  return (
    <li>
      <a className="pub-link" href={link.url} target="_blank" rel="noopener noreferrer" data-testid="linkstore-link">
        <LinkIcon icon={link.icon} />
        <span className="pub-link-text">
          <strong>{link.title}</strong>
          {link.description && <span>{link.description}</span>}
        </span>
      </a>
    </li>
  );
}

/**
 * `/linkstore` (public): the `linkstore` dictionary's links, grouped by its tree. A
 * root with links under it is a group (its title links to its own URL); roots without
 * children are gathered under "More links". Every link opens in a new window without opener.
 */
export default function LinkStorePage() {
  const { t } = useTranslation();
  const links = usePublicData(fetchLinks);
  const groups: PublicLinkGroup[] = links.state === 'done' ? links.data.groups : [];
  const withLinks = groups.filter((g) => g.links.length > 0);
  const single = groups.filter((g) => g.links.length === 0);
  usePublicHead(t(PAGE_HEAD.linkstore.title), t(PAGE_HEAD.linkstore.description));
  return (
    <div className="pub-page">
      <PublicHeader />
      <main className="pub-main">
        <section className="pub-hero">
          <h1>{t('public.links.title')}</h1>
          <p>{t('public.links.text')}</p>
        </section>
        {links.state === 'failed' && <p className="pub-alert pub-alert-error">{t('public.error', { msg: links.message })}</p>}
        {links.state === 'done' && groups.length === 0 && <p className="pub-alert">{t('public.links.empty')}</p>}
        <ul className="pub-grid" data-testid="linkstore-groups">
          {withLinks.map((group) => (
            <li className="pub-card" key={group.id} data-testid="linkstore-group">
              <h2 style={{ fontSize: 17, margin: '0 0 4px' }}>
                <a href={group.url} target="_blank" rel="noopener noreferrer">
                  {group.title}
                </a>
              </h2>
              {group.description && <p>{group.description}</p>}
              <ul className="pub-links">
                {group.links.map((link) => (
                  <LinkItem key={link.id} link={link} />
                ))}
              </ul>
            </li>
          ))}
          {single.length > 0 && (
            <li className="pub-card" data-testid="linkstore-group">
              <h2 style={{ fontSize: 17, margin: '0 0 4px' }}>{t('public.links.more')}</h2>
              <ul className="pub-links">
                {single.map((link) => (
                  <LinkItem key={link.id} link={link} />
                ))}
              </ul>
            </li>
          )}
        </ul>
      </main>
      <PublicFooter />
    </div>
  );
}
