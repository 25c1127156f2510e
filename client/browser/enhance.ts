/**
 * What the browser adds once the page is hydrated (docs/builds.md), in a chunk of its own so
 * none of it weighs on the first paint: the loading bar, the hourly build check, route rules and
 * chunk recovery on every navigation, link preloading, the app-opening fallback timer (docs/screens.md), and the
 * debug console when asked for.
 */
import type { DataRouter } from 'react-router-dom';
import type { Store } from '../app/store.tsx';
import { routeRulesLoader } from './app-manifest.ts';
import { watchBuilds } from './build-check.ts';
import { wantsDebugConsole } from './debug-switch.ts';
import { loadingBar } from './loading-bar.ts';
import { guardNavigation } from './navigation-guard.ts';
import { watchOpenAppTaps } from './open-app-taps.ts';
import { enterNewPages } from './page-transition.ts';
import { preloadLinks } from './preload-links.ts';
import { loadScreen, type RouteTable } from './screens.ts';

/**
 * What the entry hands over. The route table, its matcher and the reload guard come as arguments
 * rather than imports: a chunk importing the entry's modules makes the chunker move React and
 * the store out of the entry chunk, adding a request and bytes to the first paint.
 */
export interface EnhanceOptions extends RouteTable {
  router: DataRouter;
  store: Store;
  reloadOnce(url: string): boolean;
}

export function enhance({ router, store, routes, matchRoutes, reloadOnce }: EnhanceOptions): void {
  const table = { routes, matchRoutes };
  // First: a tap on "Open the app" needs its fallback timer as soon as possible (docs/screens.md).
  watchOpenAppTaps(store);
  const bar = loadingBar(document.querySelector<HTMLElement>('.loading-bar'));
  // Navigations that bypass `navigate` (back/forward) still drive the bar.
  router.subscribe((state) => {
    if (state.navigation.state === 'idle') bar.finish({ error: state.errors !== null });
    else bar.start();
  });

  const builds = watchBuilds(store);
  const routeRules = routeRulesLoader(store.get().buildId);
  guardNavigation(router, {
    isStale: builds.isStale,
    routeRules,
    loadScreen: (pathname) => loadScreen(table, pathname),
    reloadOnce,
    bar,
  });
  preloadLinks(table);
  enterNewPages();
  // Warm the rules so the first navigation need not wait; a failure here is only worth a log (docs/builds.md).
  routeRules().catch((error: unknown) => console.error('Lander: the build manifest did not load', error));

  const debugConsole = () => {
    if (!wantsDebugConsole(location.search, store.get().debug)) return false;
    void import('./debug-console.ts')
      .then(({ openDebugConsole }) => openDebugConsole())
      .catch((error: unknown) => console.error(error));
    return true;
  };
  if (!debugConsole()) {
    // The operator config may switch the console on after start (docs/builds.md).
    const stop = store.subscribe(() => {
      if (debugConsole()) stop();
    });
  }
}
