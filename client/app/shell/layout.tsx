/**
 * The shell (docs/routes.md): one page outlet, head tags, scroll reset on navigation (the loading
 * bar is in the document, so it stays through the error page), and below the page the about block
 * and filing numbers the worker wrote for the visitor screens (docs/screens.md#about-the-app).
 * `slide` is the layout transition and `page` the page transition (CSS classes, out-in).
 */
import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import { pageMeta } from '../../../shared/page-meta.ts';
import type { RouteHandle } from '../route-handle.ts';
import { useHandoff } from '../store.tsx';
import { Head } from './head.tsx';
import '../download/about.css';

export function Layout() {
  const { language, origin, base, site, about } = useHandoff();
  const location = useLocation();
  const matches = useMatches();
  const handle = (matches.at(-1)?.handle ?? {}) as RouteHandle;

  // Scroll resets to the top on every navigation (docs/routes.md); the pathname is the trigger.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs for each new pathname
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  return (
    <div className="layout slide">
      <Head
        meta={pageMeta({
          language,
          origin,
          pathname: `${base}${location.pathname}`,
          pageTitle: handle.title?.(language),
          noindex: handle.noindex,
          site,
        })}
      />
      {site.linkPreview && site.image ? (
        // WeChat's share card takes the body's first image (docs/smart-links.md#previews): the link's
        // preview image comes first, hidden and never fetched by a browser for it.
        <img src={site.image} alt="" width={site.imageWidth} height={site.imageHeight} hidden loading="lazy" />
      ) : null}
      <main className="page" key={location.pathname}>
        <Outlet />
        {about ? (
          // The about block and filing numbers of `/` and `/landing` (docs/screens.md#about-the-app).
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the worker wrote it, every text and attribute escaped (worker/render/about-markup.ts)
          <div className="about" dangerouslySetInnerHTML={{ __html: about }} />
        ) : null}
      </main>
    </div>
  );
}
