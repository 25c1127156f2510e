import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Head } from '../../client/app/shell/head.tsx';
import { pageMeta } from '../../shared/page-meta.ts';
import { DEMO_CONFIG } from '../../worker/config/demo.ts';
import { metaPageHtml } from '../../worker/render/meta-page.ts';
import { siteMeta } from '../../worker/render/site-meta.ts';

const ORIGIN = 'https://lander.test';

/** Each tag's name and attributes (or text), in order, whatever the serialiser's quoting and escaping. */
function tags(html: string): string[] {
  const doc = html.replace(/&#39;|&#x27;/g, "'").replace(/&#38;|&amp;/g, '&');
  return [...doc.matchAll(/<(title)>([^<]*)<\/title>|<(meta|link) ([^>]*?)\/?>/g)].map((m) =>
    m[1] ? `title ${m[2]}` : `${m[3]} ${m[4]?.trim()}`,
  );
}

describe('the head tags', () => {
  it("are the same in the bots' metadata page as in the React head", () => {
    const meta = pageMeta({
      language: 'en',
      origin: ORIGIN,
      pathname: '/',
      noindex: true,
      site: siteMeta(DEMO_CONFIG, 'en'),
    });
    const react = tags(renderToStaticMarkup(<Head meta={meta} />));
    const bots = tags(metaPageHtml(ORIGIN, 'en', DEMO_CONFIG));
    expect(react.length).toBeGreaterThan(10);
    // The bots' page adds its charset, referrer policy and icon around the shared list.
    expect(bots.filter((tag) => !/charset|referrer|icon/.test(tag))).toEqual(react);
  });
});
