/**
 * Head metadata for a page (PRODUCT.md §5.1 last bullet): used by the React head and by the
 * bots' precomputed metadata-only page, so both say the same thing.
 */
import type { Language } from './handoff.ts';
import { texts } from './texts.ts';

export interface PageMeta {
  title: string;
  description: string;
  canonical: string;
  image: string;
  siteName: string;
  noindex: boolean;
}

export interface PageMetaInput {
  language: Language;
  origin: string;
  pathname: string;
  /** A page title to put before the app's name. */
  pageTitle?: string;
  noindex?: boolean;
}

export function pageMeta({ language, origin, pathname, pageTitle, noindex = false }: PageMetaInput): PageMeta {
  const t = texts(language);
  return {
    title: pageTitle ? `${pageTitle} · ${t.appName}` : t.appName,
    description: t.description,
    canonical: new URL(pathname, origin).href,
    image: new URL('/logo.png', origin).href,
    siteName: t.appName,
    noindex,
  };
}
