/**
 * No open redirect (docs/security.md): no request can send a visitor off-site. Redirect targets come
 * from the route rules only (shared/route-rules.ts), checked at setup; what a request carries — its
 * path, its query, a campaign token — is never a target.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { isSafeTarget, type RouteRule, routeRules } from '../../../shared/route-rules.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { routeRules as routeRulesMiddleware } from '../../../worker/middleware/route-rules.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { fetchWorker, get, ORIGIN } from '../helpers.ts';

const HOST = new URL(ORIGIN).host;
const OFF_SITE = ['//evil.com', '/\\evil.com', 'https:/evil.com', 'trusted@evil.com'];
/** The same, and the encodings and tricks browsers and servers are known to normalise. */
const HOSTILE = [
  ...OFF_SITE,
  'https://evil.com',
  '///evil.com',
  '\\\\evil.com',
  '/%2F%2Fevil.com',
  '/%5Cevil.com',
  '/%09/evil.com',
  'https://trusted@evil.com',
  'javascript:alert(1)',
];
const PAGES = ['/', '/landing', '/test', '/no-such-page', '/api/health', '/api/trace', '/assets/builds/latest.json'];
const RULE_PATHS = routeRules.map((rule) => rule.path);
const CONFIGURED = new Set(routeRules.map((rule) => rule.redirect.to));
const PARAMS = [
  'redirect',
  'redirect_uri',
  'to',
  'url',
  'next',
  'return',
  'returnTo',
  'continue',
  'target',
  'goto',
  'r',
];

/** A response sends the visitor off-site only through a Location that is not one of the configured targets. */
function expectStaysOnSite(res: Response, where: string): void {
  const location = res.headers.get('location');
  if (location === null) return;
  if (CONFIGURED.has(location)) return;
  expect(new URL(location, ORIGIN).host, `${where} → ${location}`).toBe(HOST);
}

describe('open redirects', () => {
  it.each(OFF_SITE)('never redirects off-site for the path %s', async (value) => {
    for (const path of [`/${value}`, `/${value.replace(/^\/+/, '')}`, `${value.startsWith('/') ? '' : '/'}${value}`]) {
      const res = await get(path);
      expect(res.status, path).toBeLessThan(500);
      expectStaysOnSite(res, path);
    }
  });

  it('never redirects off-site for hostile paths under a rule’s path', async () => {
    for (const rulePath of RULE_PATHS) {
      for (const value of HOSTILE) {
        const path = `${rulePath}/${value}`;
        expectStaysOnSite(await get(path), path);
      }
    }
  });

  it('takes no redirect target from any query value, on any page or rule', async () => {
    // Unknown pages and broken tokens are logged by design.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const path of [...PAGES, ...RULE_PATHS]) {
      for (const value of HOSTILE) {
        const query = PARAMS.map((name) => `${name}=${encodeURIComponent(value)}`).join('&');
        const res = await get(`${path}?${query}`);
        expect(res.status, path).toBeLessThan(500);
        expectStaysOnSite(res, `${path}?…${value}`);
      }
    }
    vi.restoreAllMocks();
  });

  it('redirects a rule to exactly its configured target, whatever the query says', async () => {
    for (const rule of routeRules) {
      const res = await get(`${rule.path}?redirect=${encodeURIComponent('//evil.com')}&to=https:/evil.com`);
      expect(res.status).toBe(rule.redirect.status ?? 307);
      expect(res.headers.get('location')).toBe(rule.redirect.to);
    }
  });

  it('takes no redirect target from a campaign token either', async () => {
    const payload = JSON.stringify({ redirect: '//evil.com', url: 'https:/evil.com', next: 'trusted@evil.com' });
    const res = await get(`/landing?d=${encryptToken(payload, DEV_DECODE_KEY)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
  });

  it('answers requests with hostile Host-like headers on this origin only', async () => {
    const variants: Record<string, string>[] = [
      { 'x-forwarded-host': 'evil.com' },
      { 'x-original-url': '//evil.com' },
      { referer: 'https://evil.com/' },
    ];
    for (const headers of variants) {
      for (const rule of routeRules) expectStaysOnSite(await get(rule.path, { headers }), rule.path);
    }
  });
});

describe('route rule targets are checked at setup', () => {
  it.each([
    ...OFF_SITE.filter((to) => !/^https:/.test(to)),
    '\\\\evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    ' //evil.com',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    '',
  ])('refuses the target %j', (to) => {
    expect(isSafeTarget(to)).toBe(false);
    const rules: RouteRule[] = [{ path: '/go', redirect: { to } }];
    expect(() => routeRulesMiddleware({ rules })).toThrow(/Unsafe route rule targets/);
  });

  it.each(['/', '/landing', '/landing?channel=a', 'https://apps.apple.com/app/id6740858208', 'itms-apps://x'])(
    'accepts the target %s',
    (to) => {
      expect(isSafeTarget(to)).toBe(true);
      expect(() => routeRulesMiddleware({ rules: [{ path: '/go', redirect: { to } }] })).not.toThrow();
    },
  );

  it('every configured rule passes the check', () => {
    for (const rule of routeRules) expect(isSafeTarget(rule.redirect.to), rule.redirect.to).toBe(true);
  });

  it('applies only configured rules: an unruled path with a rule-like query is a page, not a redirect', async () => {
    const res = await fetchWorker(`${ORIGIN}/landing?download=1&ios=1`, {}, env);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
  });
});
