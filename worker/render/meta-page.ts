/**
 * The bots' page where a person would get an error (docs/routes.md): status 200, the index page's
 * metadata only, `noindex`, canonical `/`, no script. Precomputed once per configuration, origin
 * and language: a new configuration document starts a new set.
 */
import type { LanderConfig } from '../../shared/config/schema.ts';
import { pageMeta } from '../../shared/page-meta.ts';
import type { Language } from '../../shared/texts.ts';
import { siteMeta } from './site-meta.ts';

const caches = new WeakMap<LanderConfig, Map<string, string>>();
const MAX_CACHED = 64;

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function build(origin: string, language: Language, config: LanderConfig): string {
  const meta = pageMeta({ language, origin, pathname: '/', noindex: true, site: siteMeta(config, language) });
  const tags: [string, string, string][] = [
    ['name', 'description', meta.description],
    ['name', 'robots', 'noindex'],
    ['property', 'og:type', 'website'],
    ['property', 'og:title', meta.title],
    ['property', 'og:description', meta.description],
    ['property', 'og:url', meta.canonical],
    ['property', 'og:image', meta.image],
    ['property', 'og:site_name', meta.siteName],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', meta.title],
    ['name', 'twitter:description', meta.description],
    ['name', 'twitter:image', meta.image],
  ];
  const metaTags = tags.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}">`).join('');
  return (
    `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8">` +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(meta.title)}</title>${metaTags}` +
    `<link rel="canonical" href="${escapeHtml(meta.canonical)}"><link rel="icon" href="/logo.png"></head>` +
    `<body><h1>${escapeHtml(meta.title)}</h1><p>${escapeHtml(meta.description)}</p></body></html>`
  );
}

/** The metadata-only HTML for `origin` and `language` under `config`, built on first use. */
export function metaPageHtml(origin: string, language: Language, config: LanderConfig): string {
  let cache = caches.get(config);
  if (!cache) {
    cache = new Map();
    caches.set(config, cache);
  }
  const key = `${language} ${origin}`;
  let html = cache.get(key);
  if (html === undefined) {
    html = build(origin, language, config);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, html);
  }
  return html;
}
