/**
 * A short link's rules through the real worker (docs/smart-links.md): written with the link and
 * refused with their place, stored in D1, run on `/s/<slug>` before the page, a person sent on with a
 * 302, a bot always given the page, a rule that fails at run time passed over and counted in
 * `/api/losses`.
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LinkView } from '../../../shared/admin-contract.ts';
import type { LinkRule } from '../../../shared/link-rules.ts';
import { utcDay } from '../../../shared/time-zone.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { CRAWLER_AGENTS, UA } from '../../fixtures/agents.ts';
import { DEMO } from '../../fixtures/config.ts';
import { clearConfig, fetchWorker, get, ORIGIN, storeConfig } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const APP_STORE = 'https://apps.apple.com/app/id6740858208';
const freshSlug = (): string => `r-${crypto.randomUUID().slice(0, 8)}`;

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  return fetchWorker(`${ORIGIN}${path}`, {
    method,
    headers: auth,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A link with `rules`, made through the API; its slug. */
async function linkWith(rules: LinkRule[], fields: Record<string, unknown> = {}): Promise<string> {
  const slug = freshSlug();
  const res = await call('POST', '/api/links', { channel: 'spring', slug, rules, ...fields });
  expect(res.status, await res.clone().text()).toBe(201);
  return slug;
}

async function allowHosts(hosts: string[]): Promise<void> {
  await storeConfig({ ...DEMO, links: { ...DEMO.links, allowed_hosts: hosts } });
}

async function lostRuleErrors(): Promise<number> {
  const row = await env.FUNNEL_DB.prepare("SELECT n FROM losses WHERE what = 'rule-errors' AND day = ?")
    .bind(utcDay(Date.now()))
    .first<{ n: number }>();
  return row?.n ?? 0;
}

afterEach(async () => {
  await clearConfig();
  vi.restoreAllMocks();
});

describe('writing rules with a link', () => {
  it('keeps them, in order, and shows them', async () => {
    const rules: LinkRule[] = [
      { when: 'os == "iOS"', action: 'store' },
      { when: 'device == "tablet"', action: 'deep-link', path: '/open/catalogue' },
      { when: 'true', action: 'page', variant: 'b' },
    ];
    const slug = await linkWith(rules);
    const view = await (await call('GET', `/api/links/${slug}`)).json<LinkView>();
    expect(view.rules).toEqual(rules);
    const row = await env.FUNNEL_DB.prepare('SELECT rules FROM funnel_links WHERE slug = ?')
      .bind(slug)
      .first<{ rules: string }>();
    expect(JSON.parse(row?.rules ?? 'null')).toEqual(rules);
  });

  it('refuses a rule that does not compile, naming each with its place, and keeps no link', async () => {
    const slug = freshSlug();
    const res = await call('POST', '/api/links', {
      slug,
      rules: [
        { when: 'os == "iOS"', action: 'store' },
        { when: 'contry == "CN"', action: 'store' },
        { when: 'os ==', action: 'store' },
      ],
    });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toBe(
      'rules[1].when: unknown variable "contry" at 1:1; rules[2].when: unexpected token: EOF at 1:6',
    );
    expect((await call('GET', `/api/links/${slug}`)).status).toBe(404);
  });

  it("refuses a URL off the app's allow list, and takes one on it", async () => {
    const url: LinkRule = { when: 'true', action: 'url', url: 'https://shop.example.com/spring' };
    const refused = await call('POST', '/api/links', { rules: [url] });
    expect(refused.status).toBe(400);
    expect((await refused.json<{ error: string }>()).error).toBe(
      'rules[0].url: the host "shop.example.com" is not on links.allowed_hosts',
    );
    await allowHosts(['shop.example.com']);
    expect((await call('POST', '/api/links', { rules: [url] })).status).toBe(201);
  });

  it.each([
    [[{ when: 'true', action: 'jump' }], 'action is one of page, store, url, deep-link'],
    [[{ when: 'true', action: 'deep-link', path: '//evil.example/' }], 'path is a path in the app'],
    [Array.from({ length: 101 }, () => ({ when: 'true', action: 'store' })), 'at most 100 rules'],
  ])('refuses malformed rules %# with 400 naming the field', async (rules, message) => {
    const res = await call('POST', '/api/links', { rules });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain(message);
  });

  it('replaces them with PATCH, refuses bad ones there too, and [] removes them', async () => {
    const slug = await linkWith([{ when: 'os == "iOS"', action: 'store' }]);
    const bad = await call('PATCH', `/api/links/${slug}`, { rules: [{ when: 'os == 1', action: 'store' }] });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ error: string }>()).error).toMatch(/^rules\[0\]\.when: no such overload/);
    expect((await get(`/s/${slug}`)).status).toBe(302);

    const changed = await call('PATCH', `/api/links/${slug}`, {
      rules: [{ when: 'os == "Android"', action: 'store' }],
    });
    expect((await changed.json<LinkView>()).rules).toEqual([{ when: 'os == "Android"', action: 'store' }]);
    expect((await get(`/s/${slug}`)).status).toBe(200);
    expect((await get(`/s/${slug}`, { userAgent: UA.androidChrome })).status).toBe(302);

    const removed = await call('PATCH', `/api/links/${slug}`, { rules: [] });
    expect((await removed.json<LinkView>()).rules).toEqual([]);
    expect((await get(`/s/${slug}`, { userAgent: UA.androidChrome })).status).toBe(200);
  });

  it('keeps the expiry when PATCH changes only the rules, and refuses an empty change', async () => {
    const expiresAt = '2099-01-01T00:00:00.000Z';
    const slug = await linkWith([], { expiresAt });
    const view = await (
      await call('PATCH', `/api/links/${slug}`, { rules: [{ when: 'true', action: 'store' }] })
    ).json<LinkView>();
    expect(view.expiresAt).toBe(expiresAt);
    const empty = await call('PATCH', `/api/links/${slug}`, {});
    expect(empty.status).toBe(400);
    expect((await empty.json<{ error: string }>()).error).toContain('name what to change');
  });
});

describe('/s/<slug> with rules', () => {
  it('sends an iPhone to the App Store with store, and an Android phone to the page when no rule holds', async () => {
    const slug = await linkWith([{ when: 'os == "iOS"', action: 'store' }]);
    const iphone = await get(`/s/${slug}`);
    expect(iphone.status).toBe(302);
    expect(iphone.headers.get('location')).toMatch(new RegExp(`^${APP_STORE}`));
    expect(iphone.headers.get('cache-control')).toBe('private, no-store');
    const android = await get(`/s/${slug}`, { userAgent: UA.androidChrome });
    expect(android.status).toBe(200);
    expect(await android.text()).toContain('<html');
  });

  it('takes the first rule that holds, reading the query and the link’s own channel', async () => {
    await allowHosts(['*.example.com']);
    const slug = await linkWith([
      { when: 'has(query.src) && query.src == "shop"', action: 'url', url: 'https://shop.example.com/a' },
      { when: 'channel == "spring"', action: 'url', url: 'https://www.example.com/b' },
    ]);
    expect((await get(`/s/${slug}?src=shop`)).headers.get('location')).toBe('https://shop.example.com/a');
    expect((await get(`/s/${slug}?channel=other`)).headers.get('location')).toBe('https://www.example.com/b');
  });

  it('opens the app at a deep link: its link domain for an app link path, else its scheme', async () => {
    const slug = await linkWith([
      { when: 'has(query.scheme)', action: 'deep-link', path: '/product/42?from=poster' },
      { when: 'true', action: 'deep-link', path: '/open/product/42' },
    ]);
    expect((await get(`/s/${slug}`)).headers.get('location')).toBe('https://open.pebble-notes.example/open/product/42');
    expect((await get(`/s/${slug}?scheme=1`)).headers.get('location')).toBe('pebblenotes-dev://product/42?from=poster');
    // A desktop has no app to open: it gets the page.
    expect((await get(`/s/${slug}`, { userAgent: UA.desktop })).status).toBe(200);
  });

  it('passes over a rule that fails when it runs and counts it in /api/losses', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = await lostRuleErrors();
    const slug = await linkWith([
      { when: 'query.missing == "x"', action: 'store' },
      { when: 'os == "iOS"', action: 'deep-link', path: '/open/welcome' },
    ]);
    const res = await get(`/s/${slug}`);
    expect(res.headers.get('location')).toBe('https://open.pebble-notes.example/open/welcome');
    await vi.waitFor(async () => expect(await lostRuleErrors()).toBe(before + 1));
    const losses = await fetchWorker(`${ORIGIN}/api/losses`, { headers: auth });
    expect((await losses.json<{ lost: Record<string, number> }>()).lost['rule-errors']).toBe(before + 1);
  });

  it('never follows a URL whose host has left the allow list since it was written', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await allowHosts(['shop.example.com']);
    const slug = await linkWith([{ when: 'true', action: 'url', url: 'https://shop.example.com/gone' }]);
    expect((await get(`/s/${slug}`)).status).toBe(302);
    await allowHosts([]);
    const res = await get(`/s/${slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
  });

  it('gives bots and link previewers the page, whatever the rules say', async () => {
    await allowHosts(['shop.example.com']);
    const actions: LinkRule[] = [
      { when: 'true', action: 'url', url: 'https://shop.example.com/' },
      { when: 'true', action: 'store' },
      { when: 'true', action: 'deep-link', path: '/open/x' },
    ];
    const slugs = await Promise.all(actions.map((rule) => linkWith([rule])));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...slugs),
        fc.constantFrom(...Object.values(CRAWLER_AGENTS)),
        async (slug, bot) => {
          const res = await get(`/s/${slug}`, { userAgent: bot });
          expect(res.status).toBe(200);
          expect(res.headers.get('location')).toBeNull();
          expect(await res.text()).toContain('og:title');
        },
      ),
      { numRuns: 30 },
    );
  });
});
