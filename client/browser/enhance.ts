/**
 * What the browser adds once the page is hydrated (docs/builds.md), in a chunk of its own so
 * none of it weighs on the first paint: the loading bar, the hourly build check, the navigation
 * guard (route rules and chunk recovery), link preloading, the app-opening fallback timer (docs/screens.md), the mainland APK confirmation, the debug console when asked for, and the work that waits until the page is
 * idle (the download-domain probe, identity).
 */
import type { DataRouter } from 'react-router-dom';
import type { Handoff } from '../../shared/handoff.ts';
import type { LearnedStore } from '../app/store.tsx';
import { routeRulesLoader } from './app-manifest.ts';
import { watchBuilds } from './build-check.ts';
import { wantsDebugConsole } from './debug-switch.ts';
import { visitorQuiet, whenIdle } from './idle.ts';
import { loadingBar } from './loading-bar.ts';
import { type NavigationGuard, navigationGuard } from './navigation-guard.ts';
import { watchOpenAppTaps } from './open-app-taps.ts';
import { enterNewPages, stayOnPage } from './page-transition.ts';
import { preloadLinks } from './preload-links.ts';
import { loadScreen, type RouteTable } from './screens.ts';

/**
 * What the entry hands over. The route table, its matcher and the reload guard come as arguments
 * rather than imports: a chunk importing the entry's modules makes the chunker move React and
 * the store out of the entry chunk, adding a request and bytes to the first paint.
 */
export interface EnhanceOptions extends RouteTable {
  router: DataRouter;
  handoff: Handoff;
  learned: LearnedStore;
  reloadOnce(url: string): boolean;
  /** Puts the guard in the router's data strategy. */
  guardNavigations(guard: NavigationGuard): void;
}

export function enhance({
  router,
  handoff,
  learned,
  routes,
  matchRoutes,
  reloadOnce,
  guardNavigations,
}: EnhanceOptions): void {
  const table = { routes, matchRoutes };
  // First: "Open the app" needs its fallback timer (docs/screens.md) as soon as possible; the entry
  // already watches taps for their carriers (docs/attribution.md), which may fill in the fallback.
  watchOpenAppTaps(learned, !handoff.cookieless);
  // Where the page serves mainland China, an APK tap asks first (docs/screens.md#mainland-china).
  if (handoff.apkConfirm) {
    const confirm = handoff.apkConfirm;
    void import('../app/download/apk-confirm.ts').then(({ watchApkTaps }) => watchApkTaps(confirm));
  }

  // The loading bar runs while the router navigates (guard included), in the error colour when the
  // navigation ended in an error; a navigation that kept the page brings it back from its fade.
  const bar = loadingBar(document.querySelector<HTMLElement>('.loading-bar'));
  let from: string | undefined;
  router.subscribe((state) => {
    if (state.navigation.state === 'idle') {
      bar.finish({ error: state.errors !== null });
      if (state.location.pathname === from) stayOnPage();
      from = undefined;
    } else {
      from ??= state.location.pathname;
      bar.start();
    }
  });

  const builds = watchBuilds(handoff.buildId, learned);
  const routeRules = routeRulesLoader(handoff.buildId);
  guardNavigations(
    navigationGuard({
      isStale: builds.isStale,
      routeRules,
      loadScreen: (pathname) => loadScreen(table, pathname),
      reloadOnce,
      base: handoff.base,
    }),
  );
  preloadLinks(table);
  enterNewPages();
  // Warm the rules so the first navigation need not wait; a failure here is only worth a log (docs/builds.md).
  routeRules().catch((error: unknown) => console.error('Lander: the build manifest did not load', error));

  if (wantsDebugConsole(location.search, handoff.debug)) {
    void import('./debug-console.ts')
      .then(({ openDebugConsole }) => openDebugConsole())
      .catch((error: unknown) => console.error(error));
  }

  void whenIdle().then(() => {
    // docs/config.md: the first download domain that answers.
    void import('./reachable-domain.ts').then((m) => m.probeDownloadDomains(handoff, learned));
    // docs/identity.md: both ids, with FingerprintJS only once the visitor leaves the page alone;
    // neither under COOKIELESS=on (docs/operators.md): no cookie, no stored id, no fingerprint.
    if (handoff.cookieless) return;
    void import('./identity/start-identity.ts').then((m) => m.startIdentity(handoff, learned, visitorQuiet));
  });
}
