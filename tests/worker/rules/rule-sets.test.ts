/**
 * Rule sets through the real worker (docs/smart-links.md#rule-sets): written per app through
 * `/api/rule-sets` (compiled, refused with their place, audited, scoped), named by a campaign
 * token's signed `rules` field, run on `/landing` and `/i/<carrier>` before the page as a short
 * link's own: a person sent on, a bot always given the page, a failing rule counted in `/api/losses`.
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LinkView } from '../../../shared/admin-contract.ts';
import { carrierOf } from '../../../shared/attribution.ts';
import type { LinkRule } from '../../../shared/link-rules.ts';
import { utcDay } from '../../../shared/time-zone.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { CRAWLER_AGENTS, UA } from '../../fixtures/agents.ts';
import { DEMO } from '../../fixtures/config.ts';
import { campaign } from '../app-calls.ts';
import { expectConforms } from '../conforms.ts';
import { clearConfig, fetchWorker, get, ORIGIN, storeConfig } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const APP_STORE = 'https://apps.apple.com/app/id6740858208';
const CLICK = 'AAAAAAAAAAAAAAAAAAAAAA';
const freshId = (): string => `set-${crypto.randomUUID().slice(0, 8)}`;

async function call(method: string, path: string, body?: unknown, headers = auth): Promise<Response> {
  return fetchWorker(`${ORIGIN}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A rule set of `rules` made through the API; its id. */
async function setWith(rules: LinkRule[]): Promise<string> {
  const id = freshId();
  const res = await call('PUT', `/api/rule-sets/${id}`, { rules });
  expect(res.status, await res.clone().text()).toBe(201);
  return id;
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

describe('/api/rule-sets', () => {
  it('creates, shows, lists, replaces and deletes a set, each write in the audit log', async () => {
    const id = freshId();
    const first: LinkRule[] = [{ when: 'os == "iOS"', action: 'store' }];
    const created = await call('PUT', `/api/rule-sets/${id}`, { rules: first });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id, rules: first });
    const second: LinkRule[] = [{ when: 'country == "CN"', action: 'deep-link', path: '/cn' }, ...first];
    expect((await call('PUT', `/api/rule-sets/${id}`, { rules: second })).status).toBe(200);
    expect(await (await call('GET', `/api/rule-sets/${id}`)).json()).toMatchObject({ id, rules: second });
    const list = await (await call('GET', '/api/rule-sets')).json<{ ruleSets: { id: string }[] }>();
    expect(list.ruleSets.map((set) => set.id)).toContain(id);
    expect((await call('DELETE', `/api/rule-sets/${id}`)).status).toBe(204);
    expect((await call('GET', `/api/rule-sets/${id}`)).status).toBe(404);
    const { results } = await env.FUNNEL_DB.prepare(
      "SELECT action, app FROM audit_entries WHERE kind = 'rule-set' AND target = ? ORDER BY seq",
    )
      .bind(id)
      .all<{ action: string; app: string }>();
    expect(results.map((row) => row.action)).toEqual(['created', 'updated', 'deleted']);
    expect(results.every((row) => row.app === 'default')).toBe(true);
  });

  it('refuses rules that do not compile or leave the allow list, naming the place, and keeps nothing', async () => {
    const id = freshId();
    const res = await call('PUT', `/api/rule-sets/${id}`, {
      rules: [
        { when: 'os == "iOS"', action: 'store' },
        { when: 'contry == "CN"', action: 'store' },
        { when: 'true', action: 'url', url: 'https://elsewhere.example.net/' },
      ],
    });
    expect(res.status).toBe(400);
    const { error } = await res.json<{ error: string }>();
    expect(error).toMatch(/rules\[1\]/);
    expect(error).toMatch(/rules\[2\]/);
    expect((await call('GET', `/api/rule-sets/${id}`)).status).toBe(404);
  });

  it.each([
    ['an id that is not one', '/api/rule-sets/Not%20One', { rules: [{ when: 'true', action: 'store' }] }, /^id:/],
    ['no rules', `/api/rule-sets/${freshId()}`, { rules: [] }, /rules/],
    ['a field it does not take', `/api/rule-sets/${freshId()}`, { rules: [], extra: 1 }, /extra|rules/],
  ])('refuses %s with a 400 naming the field', async (_, path, body, reason) => {
    const res = await call('PUT', path, body);
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toMatch(reason);
  });

  it('answers as the OpenAPI document says', async () => {
    const id = freshId();
    const rules: LinkRule[] = [{ when: 'os == "iOS"', action: 'store' }];
    await expectConforms(await call('PUT', `/api/rule-sets/${id}`, { rules }), '/api/rule-sets/{id}', 'put');
    await expectConforms(await call('PUT', `/api/rule-sets/${id}`, { rules }), '/api/rule-sets/{id}', 'put');
    await expectConforms(await call('GET', `/api/rule-sets/${id}`), '/api/rule-sets/{id}', 'get');
    await expectConforms(await call('GET', '/api/rule-sets'), '/api/rule-sets', 'get');
    await expectConforms(await call('PUT', `/api/rule-sets/${id}`, { rules: [] }), '/api/rule-sets/{id}', 'put');
    await expectConforms(await call('DELETE', `/api/rule-sets/${id}`), '/api/rule-sets/{id}', 'delete');
    await expectConforms(await call('GET', `/api/rule-sets/${id}`), '/api/rule-sets/{id}', 'get');
  });

  it('needs links:write to write and is per app', async () => {
    const id = await setWith([{ when: 'true', action: 'store' }]);
    const anonymous = await call('PUT', `/api/rule-sets/${id}`, { rules: [] }, { ...auth, authorization: '' });
    expect([401, 403]).toContain(anonymous.status);
    const row = await env.FUNNEL_DB.prepare('SELECT app FROM rule_sets WHERE id = ?').bind(id).first<{ app: string }>();
    expect(row?.app).toBe('default');
  });
});

describe('a token naming a rule set', () => {
  it('sends an iPhone on /landing to the store and serves an Android phone the page', async () => {
    const id = await setWith([{ when: 'os == "iOS"', action: 'store' }]);
    const token = campaign({ channel: 'spring', rules: id });
    const iphone = await get(`/landing?d=${token}`);
    expect(iphone.status).toBe(302);
    expect(iphone.headers.get('location')).toMatch(new RegExp(`^${APP_STORE}`));
    expect(iphone.headers.get('cache-control')).toBe('private, no-store');
    const android = await get(`/landing?d=${token}`, { userAgent: UA.androidChrome });
    expect(android.status).toBe(200);
    expect(await android.text()).toContain('<html');
  });

  it('runs on /i/<carrier>, reading the token’s channel', async () => {
    const id = await setWith([
      { when: 'channel == "autumn"', action: 'deep-link', path: '/open/a' },
      { when: 'channel == "spring"', action: 'deep-link', path: '/open/b' },
    ]);
    const res = await get(`/i/${carrierOf(CLICK, campaign({ channel: 'spring', rules: id }))}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://open.pebble-notes.example/open/b');
  });

  it('follows the set as it is now: a change applies to tokens already printed, a deleted set serves the page', async () => {
    const id = await setWith([{ when: 'true', action: 'deep-link', path: '/open/one' }]);
    const path = `/landing?d=${campaign({ rules: id })}`;
    expect((await get(path)).headers.get('location')).toBe('https://open.pebble-notes.example/open/one');
    await call('PUT', `/api/rule-sets/${id}`, { rules: [{ when: 'true', action: 'deep-link', path: '/open/two' }] });
    expect((await get(path)).headers.get('location')).toBe('https://open.pebble-notes.example/open/two');
    await call('DELETE', `/api/rule-sets/${id}`);
    expect((await get(path)).status).toBe(200);
  });

  it('is not run from an unsigned parameter: a plain ?rules= names nothing', async () => {
    const id = await setWith([{ when: 'true', action: 'store' }]);
    expect((await get(`/landing?rules=${id}&d=${campaign({ channel: 'x' })}`)).status).toBe(200);
  });

  it('passes over a rule that fails when it runs and counts it in /api/losses', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = await lostRuleErrors();
    const id = await setWith([
      { when: 'query.missing == "x"', action: 'store' },
      { when: 'os == "iOS"', action: 'deep-link', path: '/open/welcome' },
    ]);
    const res = await get(`/landing?d=${campaign({ rules: id })}`);
    expect(res.headers.get('location')).toBe('https://open.pebble-notes.example/open/welcome');
    await vi.waitFor(async () => expect(await lostRuleErrors()).toBe(before + 1));
  });

  it('gives bots and link previewers the page, whatever the set says', async () => {
    await storeConfig({ ...DEMO, links: { ...DEMO.links, allowed_hosts: ['shop.example.com'] } });
    const ids = await Promise.all(
      (
        [
          { when: 'true', action: 'url', url: 'https://shop.example.com/' },
          { when: 'true', action: 'store' },
          { when: 'true', action: 'deep-link', path: '/open/x' },
        ] as LinkRule[]
      ).map((rule) => setWith([rule])),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ids),
        fc.constantFrom(...Object.values(CRAWLER_AGENTS)),
        fc.boolean(),
        async (id, bot, viaCarrier) => {
          const token = campaign({ rules: id });
          const res = await get(viaCarrier ? `/i/${carrierOf(CLICK, token)}` : `/landing?d=${token}`, {
            userAgent: bot,
          });
          expect(res.status).toBe(200);
          expect(res.headers.get('location')).toBeNull();
        },
      ),
      { numRuns: 30 },
    );
  });

  it('is minted by POST /api/links only for a set the app has', async () => {
    const missing = await call('POST', '/api/links', { data: { rules: 'no-such-set' } });
    expect(missing.status).toBe(400);
    expect((await missing.json<{ error: string }>()).error).toMatch(/^data\.rules: no rule set "no-such-set"/);
    const id = await setWith([{ when: 'os == "iOS"', action: 'store' }]);
    const made = await call('POST', '/api/links', { channel: 'spring', data: { rules: id } });
    expect(made.status).toBe(201);
    const link = await made.json<LinkView>();
    // The short link and its long URL both run the set.
    expect((await get(new URL(link.shortUrl).pathname)).status).toBe(302);
    const long = new URL(link.url);
    expect((await get(`${long.pathname}${long.search}`)).status).toBe(302);
  });
});
