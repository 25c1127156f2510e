/**
 * The browser entry: read the hand-off, load the screens the server rendered, then hydrate the
 * whole document with a data router, so the first client render matches the server's markup.
 */
import { StrictMode, startTransition, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, type DataStrategyResult, matchRoutes, RouterProvider } from 'react-router-dom';
import { QR_CLASS } from '../../shared/download-view.ts';
import { HANDOFF_ELEMENT_ID, parseHandoff } from '../../shared/handoff.ts';
import { App } from '../app/app.tsx';
import { reviveHydration } from '../app/hydration.ts';
import { routeContext } from '../app/route-context.ts';
import { routes } from '../app/routes.tsx';
import { createLearnedStore } from '../app/store.tsx';
import { watchClicks } from './attribution/click-beacon.ts';
import { reloadOnce } from './chunk-reload.ts';
import type { NavigationGuard } from './navigation-guard.ts';
import '../app/shell/styles.css';
// Every visitor screen's styles come in the entry's one stylesheet, which every document links: the
// build's preload helper loads no CSS (scripts/lib/vite-plain-preload.ts, docs/benchmarks.md) and
// fails on a lazy chunk with a stylesheet of its own. The console's styles stay apart (admin-page.tsx).
import '../app/landing/landing.css';
import '../app/download/download.css';
import '../app/download/open-in-browser-guide.css';
import '../app/download/apk-confirm.css';

/** Resolves the lazy routes the server rendered, before hydration (react-router docs: data/custom). */
async function loadInitialScreens(base: string): Promise<void> {
  const matches = matchRoutes(routes, window.location, base || undefined) ?? [];
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
  const { handoff, hydration } = parseHandoff(handoffJson, qrSrc);
  const learned = createLearnedStore(handoff);
  // First of all: a tap as soon as the button paints carries its carrier (docs/attribution.md).
  const clicks = watchClicks({
    attribution: handoff.attribution,
    token: handoff.campaign.token,
    base: handoff.base,
    visitorId: () => learned.get().identity.visitorId,
  });
  // A screen that does not load: reload once (docs/builds.md); past the guard, the router shows the error page.
  await loadInitialScreens(handoff.base).catch(() => reloadOnce(location.href) && new Promise(() => {}));
  // The navigation guard comes with the code loaded after hydration (enhance.ts); until then the
  // router navigates unguarded, as it would without it.
  let guard: NavigationGuard | undefined;
  const router = createBrowserRouter(routes, {
    // Under an app's prefix (docs/routes.md#apps) every route and link stays inside it.
    basename: handoff.base || undefined,
    hydrationData: reviveHydration(hydration),
    getContext: () => routeContext({ diagnostics: handoff.diagnostics }),
    // React Router's data strategy sees every navigation, so the guard decides before anything loads.
    async dataStrategy({ request, matches }) {
      const redirect = await guard?.(request.url);
      // The root route (routes.tsx) carries a redirect; React Router follows it like a loader's.
      const results: Record<string, DataStrategyResult> = redirect ? { root: { type: 'data', result: redirect } } : {};
      if (!redirect) {
        await Promise.all(
          matches.map(async (match) => {
            if (match.shouldLoad) results[match.route.id] = await match.resolve();
          }),
        );
      }
      return results;
    },
  });
  // Hydrating in a transition lets React yield to the browser every few milliseconds instead of
  // holding the main thread for the whole document, so the page can paint and scroll meanwhile (a
  // tap before the end makes React finish at once and replay it). Readers see the server's state
  // until hydration is done (the learned store's initial state), whatever refinements land in between.
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <App handoff={handoff} learned={learned} handoffJson={handoffJson}>
          <RouterProvider router={router} />
          <HydrationMarker />
        </App>
      </StrictMode>,
    );
  });
  clicks.afterPageListeners();
  // Build checks, navigation guard, preloading, loading bar, identity: not needed to paint (docs/builds.md).
  void import('./enhance.ts').then(({ enhance }) =>
    enhance({
      router,
      handoff,
      learned,
      routes,
      matchRoutes,
      reloadOnce,
      guardNavigations: (installed) => {
        guard = installed;
      },
    }),
  );
  // docs/device.md: the browser refines the device in its own chunk.
  void import('./refine-device.ts').then(({ refineDevice }) => refineDevice(learned));
}

void start();
