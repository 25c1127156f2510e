/**
 * Applies route rules (docs/routes.md) as real redirects: the rule's status, default 307. Targets
 * come only from the rules, which are checked once here, at setup. A path with an empty segment
 * (`//`, `/a//b`; a backslash reads as a slash) is the same page under a second address: it is
 * redirected (308) to its one address, the path with the slashes collapsed, always on this site.
 */
import type { MiddlewareHandler } from 'hono';
import { isSafeTarget, matchRouteRule, type RouteRule } from '../../shared/route-rules.ts';
import type { AppEnv } from '../env.ts';

export interface RouteRulesOptions {
  rules: readonly RouteRule[];
}

export function routeRules({ rules }: RouteRulesOptions): MiddlewareHandler<AppEnv> {
  const unsafe = rules.filter((rule) => !isSafeTarget(rule.redirect.to));
  if (unsafe.length > 0) throw new Error(`Unsafe route rule targets: ${unsafe.map((r) => r.redirect.to).join(', ')}`);
  return async function routeRulesMiddleware(c, next) {
    if (c.req.path.includes('//')) {
      const { search } = new URL(c.req.url);
      return c.redirect(`${c.get('appBase') ?? ''}${c.req.path.replace(/\/{2,}/g, '/')}${search}`, 308);
    }
    const rule = matchRouteRule(rules, c.req.path);
    if (!rule) return next();
    // A local target stays in the request's app (`/@pebble/download` → `/@pebble/`, docs/routes.md#apps).
    const to = rule.redirect.to.startsWith('/') ? `${c.get('appBase') ?? ''}${rule.redirect.to}` : rule.redirect.to;
    return c.redirect(to, rule.redirect.status ?? 307);
  };
}
