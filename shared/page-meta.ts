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
  /** The image's size in pixels, when known (a link's generated card). */
  imageWidth?: number;
  imageHeight?: number;
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
  imageWidth?: number;
  imageHeight?: number;
  /**
   * A short link's own preview (shared/link-preview.ts): its title is the page's whole title, and the
   * image is the body's first too, for WeChat's share card (client/app/shell/layout.tsx).
   */
  linkPreview?: true;
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
    title: pageTitle && !site?.linkPreview ? `${pageTitle} · ${name}` : (site?.title ?? name),
    description: site?.description ?? t.description,
    canonical: pathOn(origin, pathname),
    // A path or an https URL: the configuration's schema admits nothing else (docs/config.md).
    image: new URL(site?.image ?? '/logo.png', origin).href,
    ...(site?.imageWidth && site.imageHeight ? { imageWidth: site.imageWidth, imageHeight: site.imageHeight } : {}),
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

/**
 * One tag of a page's head: `<title>` with its text, or a `<meta>` / `<link>` named by one attribute
 * (`name`, `property`, `rel`) whose value is in `content` (meta) or `href` (link). Tuples rather than
 * objects: this list is in the page's initial script.
 */
export type HeadTag =
  | readonly [tag: 'title', text: string]
  | readonly [tag: 'meta', attribute: 'name' | 'property', key: string, content: string]
  | readonly [tag: 'link', attribute: 'rel', key: string, href: string];

/**
 * The head tags of a page: the one list both the React head (client/app/shell/head.tsx) and the bots'
 * metadata page (worker/render/meta-page.ts) render, so people and link previewers read the same tags.
 */
export function headTags(meta: PageMeta): HeadTag[] {
  return [
    ['title', meta.title],
    ['meta', 'name', 'description', meta.description],
    ['link', 'rel', 'canonical', meta.canonical],
    ...(meta.noindex ? [['meta', 'name', 'robots', 'noindex'] as const] : []),
    ['meta', 'property', 'og:type', 'website'],
    ['meta', 'property', 'og:title', meta.title],
    ['meta', 'property', 'og:description', meta.description],
    ['meta', 'property', 'og:url', meta.canonical],
    ['meta', 'property', 'og:image', meta.image],
    ...(meta.imageWidth && meta.imageHeight
      ? ([
          ['meta', 'property', 'og:image:width', String(meta.imageWidth)],
          ['meta', 'property', 'og:image:height', String(meta.imageHeight)],
        ] as const)
      : []),
    ['meta', 'property', 'og:site_name', meta.siteName],
    ['meta', 'name', 'twitter:card', 'summary_large_image'],
    ['meta', 'name', 'twitter:title', meta.title],
    ['meta', 'name', 'twitter:description', meta.description],
    ['meta', 'name', 'twitter:image', meta.image],
  ];
}
