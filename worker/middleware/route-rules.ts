/**
 * Applies route rules (docs/routes.md) as real redirects: the rule's status, default 307. Targets
 * come only from the rules, which are checked once here, at setup.
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
    const rule = matchRouteRule(rules, c.req.path);
    if (!rule) return next();
    return c.redirect(rule.redirect.to, rule.redirect.status ?? 307);
  };
}
