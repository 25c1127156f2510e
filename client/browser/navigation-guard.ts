/**
 * Every client navigation passes through here before the router moves (docs/routes.md,
 * docs/builds.md). The router calls it from its data strategy (client/browser/entry.tsx), so links,
 * `useNavigate`, redirects and back/forward steps all take the same path:
 * 1. a newer build is deployed → a full page load of the target instead;
 * 2. a route rule matches → the router redirects to its target; a target with a protocol leaves
 *    with `location.href`;
 * 3. the target screen's chunk loads while the old page fades out; a chunk that fails to load
 *    reloads the target once (chunk-reload guard), after which the router shows the error page.
 */
import { hasProtocol, matchRouteRule, type RouteRule } from '../../shared/route-rules.ts';
import { leavePage } from './page-transition.ts';

export interface NavigationGuardOptions {
  /** True when a newer build than the running one is deployed. */
  isStale(): boolean;
  /** The running build's route rules; rejects when they cannot be known (docs/builds.md). */
  routeRules(): Promise<readonly RouteRule[]>;
  /** Loads the screen chunk of a path; rejects when the chunk does not load. */
  loadScreen(pathname: string): Promise<void>;
  /** The chunk-reload guard of the entry (chunk-reload.ts). */
  reloadOnce(url: string): boolean;
  /** The app's base path (docs/routes.md#apps, `/@notes`): the rules and screens are the app's own paths. */
  base?: string;
}

/**
 * Resolves with a redirect for the router to follow, or undefined to let it go on; never settles
 * when the page is going away.
 */
export type NavigationGuard = (target: string) => Promise<Response | undefined>;

/** A full page load of `url`: on a back/forward step the address is already there, so a reload. */
function leaveFor(url: string): Promise<never> {
  location.assign(url);
  return new Promise<never>(() => {});
}

const pathOf = (url: URL) => url.pathname + url.search + url.hash;

export function navigationGuard({
  isStale,
  routeRules,
  loadScreen,
  reloadOnce,
  base = '',
}: NavigationGuardOptions): NavigationGuard {
  return async function guard(target) {
    const url = new URL(target);
    if (isStale()) return leaveFor(pathOf(url));
    let rules: readonly RouteRule[];
    try {
      rules = await routeRules();
    } catch (error) {
      // Rules unknown: the worker applies them on a full load of the target.
      console.error('Lander: the route rules are unknown; loading the page afresh', error);
      return leaveFor(pathOf(url));
    }
    const inApp = base && url.pathname.startsWith(base) ? url.pathname.slice(base.length) || '/' : url.pathname;
    const rule = matchRouteRule(rules, inApp);
    if (rule) {
      const { to } = rule.redirect;
      if (hasProtocol(to)) return leaveFor(to);
      // React Router's redirect: the navigation goes on to `to`, passing this guard again.
      return new Response(null, { status: 302, headers: { Location: to } });
    }
    const [screen] = await Promise.allSettled([loadScreen(inApp), leavePage()]);
    if (screen.status === 'rejected' && reloadOnce(url.href)) return new Promise<never>(() => {});
    return undefined;
  };
}
