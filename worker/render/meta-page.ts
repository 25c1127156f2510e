/**
 * The bots' page where a person would get an error (docs/routes.md): status 200, the index page's
 * head tags (shared/page-meta.ts `headTags`, as the React head renders them) with `noindex` and
 * canonical `/`, no script. Built as a string: a few microseconds, no React render.
 */
import type { LanderConfig } from '../../shared/config/schema.ts';
import { type HeadTag, headTags, pageMeta } from '../../shared/page-meta.ts';
import type { Language } from '../../shared/texts.ts';
import { siteMeta } from './site-meta.ts';

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function tagHtml(head: HeadTag): string {
  if (head[0] === 'title') return `<title>${escapeHtml(head[1])}</title>`;
  const [tag, attribute, key, value] = head;
  return `<${tag} ${attribute}="${escapeHtml(key)}" ${tag === 'meta' ? 'content' : 'href'}="${escapeHtml(value)}">`;
}

/** The metadata-only HTML for `origin` and `language` under `config`. */
export function metaPageHtml(origin: string, language: Language, config: LanderConfig, base = ''): string {
  const meta = pageMeta({ language, origin, pathname: `${base}/`, noindex: true, site: siteMeta(config, language) });
  return (
    `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
    `${headTags(meta).map(tagHtml).join('')}<link rel="icon" href="/logo.png"></head>` +
    `<body><h1>${escapeHtml(meta.title)}</h1><p>${escapeHtml(meta.description)}</p></body></html>`
  );
}
