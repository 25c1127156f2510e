/**
 * The browser entry: read the hand-off, load the screens the server rendered, then hydrate the
 * whole document with a data router, so the first client render matches the server's markup.
 */
import { StrictMode, startTransition, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router-dom';
import { QR_CLASS } from '../../shared/download-view.ts';
import { HANDOFF_ELEMENT_ID, parseHandoff } from '../../shared/handoff.ts';
import { App } from '../app/app.tsx';
import { reviveHydration } from '../app/hydration.ts';
import { routeContext } from '../app/route-context.ts';
import { routes } from '../app/routes.tsx';
import { createStore } from '../app/store.tsx';
import { afterLoad } from './after-load.ts';
import { reloadOnce } from './chunk-reload.ts';
import '../app/shell/styles.css';

/** Resolves the lazy routes the server rendered, before hydration (react-router docs: data/custom). */
async function loadInitialScreens(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}

/** Renders nothing; marks <html data-hydrated="true"> once React has taken over the page. */
function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

async function start(): Promise<void> {
  const handoffJson = document.getElementById(HANDOFF_ELEMENT_ID)?.textContent ?? '';
  const qrSrc = document.querySelector(`img.${QR_CLASS}`)?.getAttribute('src') ?? null;
  const handoff = parseHandoff(handoffJson, qrSrc);
  const store = createStore(handoff.store);
  // A screen that does not load: reload once (docs/builds.md); past the guard, the router shows the error page.
  await loadInitialScreens().catch(() => reloadOnce(location.href) && new Promise(() => {}));
  const router = createBrowserRouter(routes, {
    hydrationData: reviveHydration(handoff.hydration),
    getContext: () => routeContext({ diagnostics: store.get().diagnostics }),
  });
  // Hydrating in a transition lets React yield to the browser every few milliseconds instead of
  // holding the main thread for the whole document, so the page can paint and scroll meanwhile (a
  // tap before the end makes React finish at once and replay it). Readers see the server's state
  // until hydration is done (store.initial), whatever refinements land in between.
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <App store={store} handoffJson={handoffJson}>
          <RouterProvider router={router} />
          <HydrationMarker />
        </App>
      </StrictMode>,
    );
  });
  // Build checks, route rules, preloading, loading bar, debug console: not needed to paint (docs/builds.md).
  void import('./enhance.ts').then(({ enhance }) => enhance({ router, store, routes, matchRoutes, reloadOnce }));
  // docs/device.md: the browser refines the device in its own chunk, applied once hydration is done.
  void import('./refine-device.ts').then(({ refineDevice }) => refineDevice(store));
  // docs/config.md: the first download domain that answers, probed once the page is idle.
  void import('./reachable-domain.ts').then((m) => m.probeDownloadDomains(store));
  afterLoad(() => import('./identity/start-identity.ts').then(({ startIdentity }) => startIdentity(store)));
}

void start();
