/**
 * The shell (docs/routes.md): one page outlet, head tags, scroll reset on navigation (the loading
 * bar is in the document, so it stays through the error page).
 * `slide` is the layout transition and `page` the page transition (CSS classes, out-in).
 */
import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router-dom';
import { pageMeta } from '../../../shared/page-meta.ts';
import type { RouteHandle } from '../route-handle.ts';
import { useHandoff } from '../store.tsx';
import { Head } from './head.tsx';

export function Layout() {
  const { language, origin, site } = useHandoff();
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
          pathname: location.pathname,
          pageTitle: handle.title?.(language),
          noindex: handle.noindex,
          site,
        })}
      />
      <main className="page" key={location.pathname}>
        <Outlet />
      </main>
    </div>
  );
}
