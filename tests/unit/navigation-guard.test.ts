/** The navigation guard the router's data strategy runs (client/browser/navigation-guard.ts, docs/builds.md). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type NavigationGuardOptions, navigationGuard } from '../../client/browser/navigation-guard.ts';
import type { RouteRule } from '../../shared/route-rules.ts';

const TARGET = 'https://lander.test/landing?channel=a';
const PENDING = Symbol('pending');
let assigned: string[];

beforeEach(() => {
  assigned = [];
  vi.stubGlobal('location', { assign: (url: string) => assigned.push(url) });
  // No page element: the fade-out has nothing to wait for.
  vi.stubGlobal('document', { querySelector: () => null });
});
afterEach(() => vi.unstubAllGlobals());

function guard(options: Partial<NavigationGuardOptions> = {}) {
  return navigationGuard({
    isStale: () => false,
    routeRules: async () => [],
    loadScreen: async () => {},
    reloadOnce: () => false,
    ...options,
  });
}

/**
 * The guard's answer, or PENDING when it has not settled once every queued microtask has run (the
 * guard's own work here is all promise callbacks; `setImmediate` runs after them).
 */
async function answer(promise: Promise<Response | undefined>): Promise<Response | undefined | typeof PENDING> {
  return Promise.race([promise, new Promise<typeof PENDING>((resolve) => setImmediate(() => resolve(PENDING)))]);
}

const rules =
  (...list: RouteRule[]) =>
  async () =>
    list;

describe('the navigation guard', () => {
  it('lets the router go on when the build is current, no rule matches and the screen loads', async () => {
    const loadScreen = vi.fn(async () => {});
    expect(await answer(guard({ loadScreen })(TARGET))).toBeUndefined();
    expect(loadScreen).toHaveBeenCalledWith('/landing');
    expect(assigned).toEqual([]);
  });

  it('loads the target afresh once a newer build is the latest, before asking for rules', async () => {
    const routeRules = vi.fn(async () => []);
    expect(await answer(guard({ isStale: () => true, routeRules })(TARGET))).toBe(PENDING);
    expect(assigned).toEqual(['/landing?channel=a']);
    expect(routeRules).not.toHaveBeenCalled();
  });

  it('turns a path rule into a redirect of the router', async () => {
    const result = await answer(guard({ routeRules: rules({ path: '/landing', redirect: { to: '/test' } }) })(TARGET));
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).status).toBe(302);
    expect((result as Response).headers.get('Location')).toBe('/test');
  });

  it("reads an app's path under its base: the rule and the screen are the app's own (docs/routes.md#apps)", async () => {
    const screens: string[] = [];
    const under = guard({
      base: '/@notes',
      routeRules: rules({ path: '/landing', redirect: { to: '/test' } }),
      loadScreen: async (pathname) => void screens.push(pathname),
    });
    const result = await answer(under('https://lander.test/@notes/landing?channel=a'));
    expect((result as Response).headers.get('Location')).toBe('/test');
    expect(await answer(under('https://lander.test/@notes/'))).toBeUndefined();
    expect(screens).toEqual(['/']);
  });

  it('leaves with the target of a rule with a protocol', async () => {
    const to = 'itms-apps://apps.apple.com/app/id1';
    expect(await answer(guard({ routeRules: rules({ path: '/landing', redirect: { to } }) })(TARGET))).toBe(PENDING);
    expect(assigned).toEqual([to]);
  });

  it('loads the target afresh, logged, when the rules cannot be known, so the worker applies them', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const routeRules = async () => Promise.reject(new Error('HTTP error! status: 500'));
    expect(await answer(guard({ routeRules })(TARGET))).toBe(PENDING);
    expect(assigned).toEqual(['/landing?channel=a']);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('reloads the target once when its screen does not load, and past the reload guard lets the router fail', async () => {
    const loadScreen = async () => Promise.reject(new Error('chunk'));
    const reloads: string[] = [];
    const reloadOnce = (url: string) => reloads.push(url) === 1;
    const guarded = guard({ loadScreen, reloadOnce });
    expect(await answer(guarded(TARGET))).toBe(PENDING);
    expect(await answer(guarded(TARGET))).toBeUndefined();
    expect(reloads).toEqual([TARGET, TARGET]);
  });
});
