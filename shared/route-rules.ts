/**
 * Route rules (docs/routes.md): the one place where redirects are configured. The worker applies
 * them as real redirects; the build manifest carries them to the browser, which applies them
 * before navigating. Targets come from here only — never from a request.
 */

export interface RouteRule {
  /** An exact path (`/download`) or a prefix ending in `/*` (`/old/*`). */
  path: string;
  redirect: {
    /** A path on this site (`/landing`) or an absolute URL with a protocol (`https://…`, `itms-apps://…`). */
    to: string;
    /** 301, 302, 307 (default) or 308. */
    status?: 301 | 302 | 307 | 308;
  };
}

export const routeRules: RouteRule[] = [
  { path: '/download', redirect: { to: '/' } },
  { path: '/invite', redirect: { to: '/landing', status: 302 } },
  // The download page, which sends an iPhone to the configuration's own App Store id: a fixed store
  // URL here would send every deployment's visitors to the demo app (docs/config.md#production).
  { path: '/ios', redirect: { to: '/' } },
];

/** True when `to` carries a protocol and must be navigated to outright (`location.href`). */
export function hasProtocol(to: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(to);
}

/**
 * True when a rule target is safe to redirect to: a single-slash local path or a URL with a protocol
 * other than `javascript:`, `data:` or `vbscript:`. Whitespace and control characters are refused
 * anywhere, because browsers drop tabs and newlines from URLs (`/\t/evil.com` becomes `//evil.com`),
 * and so is a backslash in a local path (`/\evil.com` is `//evil.com` to a browser).
 */
export function isSafeTarget(to: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (to === '' || /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/.test(to)) return false;
  if (hasProtocol(to)) return !/^(javascript|data|vbscript):/i.test(to);
  return to.startsWith('/') && !to.startsWith('//') && !to.includes('\\');
}

/** The rule that applies to `pathname`, if any. Exact paths win over prefixes. */
export function matchRouteRule(rules: readonly RouteRule[], pathname: string): RouteRule | undefined {
  const exact = rules.find((rule) => rule.path === pathname);
  if (exact) return exact;
  return rules.find((rule) => rule.path.endsWith('/*') && pathname.startsWith(rule.path.slice(0, -1)));
}
