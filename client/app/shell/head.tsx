/**
 * Per-page head tags. React 19 hoists <title>, <meta> and <link> into <head> on the server and in
 * the browser, so the layout can render them next to the page.
 */
import type { PageMeta } from '../../../shared/page-meta.ts';

export function Head({ meta }: { meta: PageMeta }) {
  return (
    <>
      <title>{meta.title}</title>
      <meta name="description" content={meta.description} />
      <link rel="canonical" href={meta.canonical} />
      {meta.noindex ? <meta name="robots" content="noindex" /> : null}
      <meta property="og:type" content="website" />
      <meta property="og:title" content={meta.title} />
      <meta property="og:description" content={meta.description} />
      <meta property="og:url" content={meta.canonical} />
      <meta property="og:image" content={meta.image} />
      <meta property="og:site_name" content={meta.siteName} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={meta.title} />
      <meta name="twitter:description" content={meta.description} />
      <meta name="twitter:image" content={meta.image} />
    </>
  );
}
