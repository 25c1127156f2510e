/**
 * Head metadata for a page (docs/screens.md last bullet) and the tags it becomes: rendered by the
 * React head and by the bots' metadata-only page, so both say the same thing.
 */
import type { Language } from './texts.ts';
import { texts } from './texts.ts';

export interface PageMeta {
  title: string;
  description: string;
  canonical: string;
  image: string;
  siteName: string;
  noindex: boolean;
}

/** The site's own words from the configuration (docs/screens.md last bullet), per language. */
export interface SiteMeta {
  /** The app's name: the site name, and the suffix of every page title. */
  name: string;
  /** The home page's title. */
  title: string;
  description: string;
  /** Open Graph / Twitter image: a path on this site or an absolute URL. */
  image: string;
}

export interface PageMetaInput {
  language: Language;
  origin: string;
  pathname: string;
  /** A page title to put before the app's name. */
  pageTitle?: string;
  noindex?: boolean;
  /** The configured site metadata; the built-in texts when absent. */
  site?: SiteMeta;
}

export function pageMeta({ language, origin, pathname, pageTitle, noindex = false, site }: PageMetaInput): PageMeta {
  const t = texts(language);
  const name = site?.name ?? t.appName;
  return {
    title: pageTitle ? `${pageTitle} · ${name}` : (site?.title ?? name),
    description: site?.description ?? t.description,
    canonical: pathOn(origin, pathname),
    image: imageOn(origin, site?.image),
    siteName: name,
    noindex,
  };
}

/**
 * `pathname` on `origin`, whatever it holds: a path that starts with `//` or a backslash stays a
 * path on this origin (never another host, never a throw).
 */
export function pathOn(origin: string, pathname: string): string {
  const url = new URL(origin);
  url.pathname = pathname;
  return url.href;
}

/** The share image: a path on this site or an absolute URL from the configuration; the logo otherwise. */
function imageOn(origin: string, image: string | undefined): string {
  if (image !== undefined) {
    try {
      const url = new URL(image, origin);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
    } catch {
      // not a URL: the logo instead (URL.parse is missing from older webviews)
    }
  }
  return `${origin}/logo.png`;
}

/** One tag of a page's head: `<title>`, or a `<meta>`/`<link>` with its attributes in order. */
export type HeadTag =
  | { tag: 'title'; text: string }
  | { tag: 'meta' | 'link'; attributes: readonly [name: string, value: string][] };

const metaTag = (attribute: 'name' | 'property', key: string, content: string): HeadTag => ({
  tag: 'meta',
  attributes: [
    [attribute, key],
    ['content', content],
  ],
});

/**
 * The head tags of a page: the one list both the React head (client/app/shell/head.tsx) and the bots'
 * metadata page (worker/render/meta-page.ts) render, so people and link previewers read the same tags.
 */
export function headTags(meta: PageMeta): HeadTag[] {
  return [
    { tag: 'title', text: meta.title },
    metaTag('name', 'description', meta.description),
    {
      tag: 'link',
      attributes: [
        ['rel', 'canonical'],
        ['href', meta.canonical],
      ],
    },
    ...(meta.noindex ? [metaTag('name', 'robots', 'noindex')] : []),
    metaTag('property', 'og:type', 'website'),
    metaTag('property', 'og:title', meta.title),
    metaTag('property', 'og:description', meta.description),
    metaTag('property', 'og:url', meta.canonical),
    metaTag('property', 'og:image', meta.image),
    metaTag('property', 'og:site_name', meta.siteName),
    metaTag('name', 'twitter:card', 'summary_large_image'),
    metaTag('name', 'twitter:title', meta.title),
    metaTag('name', 'twitter:description', meta.description),
    metaTag('name', 'twitter:image', meta.image),
  ];
}
