/**
 * The announcement's rich text, cleaned against an allow-list before it is stored (decision
 * 0042): what the editor makes (paragraphs, headings, bold, italic, lists, links, quotes,
 * code, images) and nothing else. No script, style, iframe, form or event handler survives;
 * links are http(s) or mailto only and open with rel="noopener noreferrer"; images only from
 * our own storage (the embedded upload host's public path, or the cloud bucket's domain).
 * The web app renders the stored HTML as it is, so this is the one line of defence.
 */
import sanitizeHtml from 'sanitize-html';

const ALLOWED_TAGS = [
  'p',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'blockquote',
  'code',
  'pre',
  'hr',
  'a',
  'img',
];

const PROBE_ORIGIN = 'http://probe.invalid';

/**
 * The image URL in normal form when it points into our storage, else null. `bases` are the
 * public file prefixes: a path on this site ("/upload/files") or an absolute URL
 * ("https://img.example.com"). Dot segments are resolved first, so "/upload/files/../x" is refused.
 */
export function ownImageUrl(src: string, bases: readonly string[]): string | null {
  const raw = src.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (raw === '' || /[\\\s\u0000-\u001f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '') return null;
  for (const base of bases) {
    if (base.startsWith('/')) {
      // A path on this site: "/upload/files/…", never protocol-relative "//host/…".
      if (!raw.startsWith('/') || raw.startsWith('//') || url.origin !== PROBE_ORIGIN) continue;
      if (url.pathname.startsWith(`${base}/`)) return `${url.pathname}${url.search}`;
    } else {
      const b = new URL(base);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') continue;
      if (url.origin === b.origin && url.pathname.startsWith(`${b.pathname.replace(/\/+$/, '')}/`)) return url.href;
    }
  }
  return null;
}

/** Clean announcement HTML; `imageBases` as for ownImageUrl. */
export function sanitizeAnnouncementHtml(html: string, imageBases: readonly string[]): string {
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: { a: ['href', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'], ol: ['start'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    allowedStyles: {},
    disallowedTagsMode: 'discard',
    // Their text is dropped with them, not left behind as text.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'template', 'title'],
    transformTags: {
      a: (tagName, attribs) => {
        const out: Record<string, string> = {};
        if (attribs.href !== undefined) {
          out.href = attribs.href;
          out.rel = 'noopener noreferrer';
          if (!attribs.href.trim().toLowerCase().startsWith('mailto:')) out.target = '_blank';
        }
        return { tagName, attribs: out };
      },
      img: (tagName, attribs) => {
        const src = attribs.src === undefined ? null : ownImageUrl(attribs.src, imageBases);
        const out: Record<string, string> = {};
        if (src !== null) out.src = src;
        if (attribs.alt !== undefined) out.alt = attribs.alt;
        for (const size of ['width', 'height'] as const) {
          const v = attribs[size];
          if (v !== undefined && /^\d{1,4}$/.test(v)) out[size] = v;
        }
        return { tagName, attribs: out };
      },
    },
    // An image whose source was refused goes entirely; so does a link left without a target.
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  });
}

/** The visible text of clean HTML (is there anything to read?). */
export const textOf = (html: string): string =>
  sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;|\s/g, '')
    .trim();
