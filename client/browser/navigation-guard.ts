/**
 * Every client navigation passes through here before the router moves (docs/routes.md, docs/builds.md):
 * 1. a newer build is deployed → a full page load of the target instead;
 * 2. a route rule matches → its target instead; a target with a protocol leaves with `location.href`;
 * 3. the target screen's chunk loads while the old page fades out; a chunk that fails to load
 *    reloads the target path once (chunk-reload guard), after which the router shows the error page;
 * 4. the router navigates; the loading bar runs from the start to the end, in the error colour
 *    when the navigation ended in an error.
 * Back/forward steps reach the router without `navigate`: popstate covers the build check there.
 */
import type { DataRouter, RouterNavigateOptions, To } from 'react-router-dom';
import { hasProtocol, matchRouteRule, type RouteRule } from '../../shared/route-rules.ts';
import type { LoadingBar } from './loading-bar.ts';
import { leavePage, stayOnPage } from './page-transition.ts';

export interface NavigationGuardOptions {
  /** True when a newer build than the running one is deployed. */
  isStale(): boolean;
  /** The running build's route rules; rejects when they cannot be known (docs/builds.md). */
  routeRules(): Promise<readonly RouteRule[]>;
  /** Loads the screen chunk of a path; rejects when the chunk does not load. */
  loadScreen(pathname: string): Promise<void>;
  /** The chunk-reload guard of the entry (chunk-reload.ts). */
  reloadOnce(url: string): boolean;
  bar: LoadingBar;
}

/** Where `to` leads, resolved against the current URL as the router resolves it. */
function targetUrl(to: To | null): URL {
  if (to === null) return new URL(location.href);
  const path = typeof to === 'string' ? to : `${to.pathname ?? ''}${to.search ?? ''}${to.hash ?? ''}`;
  return new URL(path, location.href);
}

const pathOf = (url: URL) => url.pathname + url.search + url.hash;

export function guardNavigation(
  router: DataRouter,
  { isStale, routeRules, loadScreen, reloadOnce, bar }: NavigationGuardOptions,
): void {
  const navigate = router.navigate.bind(router);

  async function guardedNavigate(to: To | number | null, options?: RouterNavigateOptions): Promise<void> {
    if (typeof to === 'number') return navigate(to);
    let url = targetUrl(to);
    if (url.origin !== location.origin) return navigate(to, options);
    if (isStale()) {
      if (options?.replace) location.replace(pathOf(url));
      else location.assign(pathOf(url));
      return;
    }

    const from = router.state.location.pathname;
    bar.start();
    try {
      let rules: readonly RouteRule[];
      try {
        rules = await routeRules();
      } catch (error) {
        // Rules unknown: the worker applies them on a full load; the error still reaches the caller.
        location.assign(pathOf(url));
        throw error;
      }
      const rule = matchRouteRule(rules, url.pathname);
      let target: To | null = to;
      if (rule) {
        if (hasProtocol(rule.redirect.to)) {
          location.href = rule.redirect.to;
          return;
        }
        target = rule.redirect.to;
        url = targetUrl(target);
      }

      const [screen] = await Promise.allSettled([loadScreen(url.pathname), leavePage()]);
      if (screen.status === 'rejected' && reloadOnce(url.href)) return;
      await navigate(target, options);
    } finally {
      if (router.state.location.pathname === from) stayOnPage();
      bar.finish({ error: router.state.errors !== null });
    }
  }

  router.navigate = guardedNavigate as DataRouter['navigate'];
  window.addEventListener('popstate', () => {
    if (isStale()) location.reload();
  });
}
