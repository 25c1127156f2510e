/**
 * The funnel fed by the real endpoints (docs/operators.md): page views (kept pages included; never
 * bots, HEAD or prefetches), short link pages, taps, installs, opens and app events reach
 * `/api/stats` through the real queue and D1. Each test uses its own signed channel, so tests never
 * share rows; every figure is waited on, never a fixed time.
 */
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { encryptToken } from '../../../worker/campaign/token.ts';
import type { StatsResult, StatsRow } from '../../../worker/funnel/stats-query.ts';
import { pageCacheStats } from '../../../worker/render/page-cache.ts';
import { DEV_ADMIN_TOKEN, DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { clickBody, installBody, PHONES } from '../../fixtures/fake-app.ts';
import { issueClickId } from '../app-calls.ts';
import { freshChannel } from '../funnel-fixtures.ts';
import { fetchWorker, get, ORIGIN } from '../helpers.ts';

const ADMIN = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };

/** A signed campaign token of `channel` (and `inviter`). */
const tokenOf = (channel: string, inviter = 'Ann Lee') =>
  encryptToken(JSON.stringify({ channel, inviter }), DEV_DECODE_KEY);

async function stats(query: string): Promise<StatsResult> {
  const res = await exports.default.fetch(new Request(`${ORIGIN}/api/stats?${query}`, { headers: ADMIN }));
  expect(res.status).toBe(200);
  return res.json();
}

/** The row of `channel` once `pick` of it reaches `value` (counts only grow). */
async function rowOnce(channel: string, pick: (row: StatsRow) => number, value: number): Promise<StatsRow> {
  const read = async () => (await stats(`by=channel&channel=${channel}`)).rows[0];
  await expect
    .poll(
      async () => {
        const row = await read();
        return row ? pick(row) : 0;
      },
      { timeout: 20_000 },
    )
    .toBe(value);
  const row = await read();
  if (!row) throw new Error('no row');
  return row;
}

function post(path: string, body: unknown, address = '198.51.100.20') {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': address, 'user-agent': UA.iPhoneSafari },
    }),
  );
}

async function createLink(body: Record<string, unknown>): Promise<{ slug: string; shortUrl: string; url: string }> {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/links`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { ...ADMIN, 'content-type': 'application/json' },
    }),
  );
  expect(res.status).toBe(201);
  return res.json();
}

describe('page views', () => {
  it('counts a person’s views of /landing, kept pages included', async () => {
    const channel = freshChannel();
    const path = `/landing?d=${tokenOf(channel)}`;
    const before = pageCacheStats();
    await (await get(path)).text();
    await vi.waitFor(() => expect(pageCacheStats().kept).toBeGreaterThan(before.kept));
    await (await get(path)).text();
    await (await get(path)).text();
    expect(pageCacheStats().hits - before.hits).toBe(2);
    const row = await rowOnce(channel, (r) => r.views, 3);
    expect(row.byPage).toEqual({ landing: 3 });
  });

  it("counts a kept page's view under the language of the visitor who asked for it", async () => {
    const channel = freshChannel();
    const path = `/landing?d=${tokenOf(channel)}`;
    const before = pageCacheStats();
    await (await get(path, { headers: { 'accept-language': 'en-US' } })).text();
    await vi.waitFor(() => expect(pageCacheStats().kept).toBeGreaterThan(before.kept));
    // French is no page language: the visitor gets the same English page, kept, but is French.
    const second = await get(path, { headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
    await second.text();
    expect(second.headers.get('server-timing')).toMatch(/^kept;desc=hit/);
    await rowOnce(channel, (r) => r.views, 2);
    const rows = (await stats(`by=lang&channel=${channel}`)).rows;
    expect(rows.map((row) => [row.key, row.views]).sort()).toEqual([
      ['en', 1],
      ['fr', 1],
    ]);
  });

  it('never counts a bot, a HEAD, a prefetch or a prerender', async () => {
    const channel = freshChannel();
    const d = tokenOf(channel);
    await get(`/landing?d=${d}`, { userAgent: UA.googlebot });
    await get(`/landing?d=${d}`, { method: 'HEAD' });
    await get(`/landing?d=${d}`, { headers: { 'sec-purpose': 'prefetch' } });
    await get(`/landing?d=${d}`, { headers: { purpose: 'prefetch' } });
    await get(`/landing?d=${d}`, { headers: { 'sec-purpose': 'prefetch;prerender' } });
    // A person's view of another page, sent last: once it is counted, any landing view before it would be too.
    await get(`/?d=${d}`);
    const row = await rowOnce(channel, (r) => r.byPage.download ?? 0, 1);
    expect(row.byPage).toEqual({ download: 1 });
  });

  it('counts a browser once a day: its first view, its reload with the user_id cookie and its tap are one visitor', async () => {
    const channel = freshChannel();
    const d = tokenOf(channel);
    const path = `/landing?d=${d}`;
    const address = '198.51.100.3';
    const visitorId = crypto.randomUUID();
    // The first view has no cookie yet; the page then stores its visitor id, which the reload and the tap carry.
    await (await get(path, { headers: { 'cf-connecting-ip': address } })).text();
    await (await get(path, { headers: { cookie: `user_id=${visitorId}`, 'cf-connecting-ip': address } })).text();
    const clickId = await issueClickId();
    const tapped = await post('/api/a/click', { ...clickBody(PHONES.iPhone15, { clickId, d, visitorId }) }, address);
    expect(tapped.status).toBe(204);
    // Another browser on another network is another visitor.
    await (await get(path, { headers: { 'cf-connecting-ip': '198.51.100.4' } })).text();
    const row = await rowOnce(channel, (r) => r.views + r.taps, 4);
    expect({ views: row.views, taps: row.taps, visitors: row.visitors }).toEqual({ views: 3, taps: 1, visitors: 2 });
  });

  it('counts the download page under the download page kind', async () => {
    const channel = freshChannel();
    await get(`/?d=${tokenOf(channel)}`);
    expect((await rowOnce(channel, (r) => r.views, 1)).byPage).toEqual({ download: 1 });
  });
});

describe('COOKIELESS=on', () => {
  const cookieless = { ...env, COOKIELESS: 'on' };

  it('sets no cookie on the trace service', async () => {
    const res = await fetchWorker(`${ORIGIN}/api/trace`, { headers: { 'user-agent': UA.iPhoneSafari } }, cookieless);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('tells the page in its hand-off, and the page sets no cookie', async () => {
    const res = await fetchWorker(`${ORIGIN}/landing`, { headers: { 'user-agent': UA.iPhoneSafari } }, cookieless);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).toContain('"cookieless":true');
  });

  it('counts visitors by address and agent only, whatever cookie the request has', async () => {
    const channel = freshChannel();
    const url = `${ORIGIN}/landing?d=${tokenOf(channel)}`;
    for (const id of [crypto.randomUUID(), crypto.randomUUID()]) {
      const headers = { 'user-agent': UA.iPhoneSafari, cookie: `user_id=${id}`, 'cf-connecting-ip': '198.51.100.9' };
      await fetchWorker(url, { headers }, cookieless);
    }
    const row = await rowOnce(channel, (r) => r.views, 2);
    expect(row.visitors).toBe(1);
  });
});

describe('GET /s/<slug>', () => {
  it('serves the landing screen with the link’s campaign', async () => {
    const channel = freshChannel();
    const { slug } = await createLink({ channel, inviter: 'Wen Li' });
    const res = await get(`/s/${slug}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Wen Li');
  });

  it('counts its views under the link', async () => {
    const channel = freshChannel();
    const { slug } = await createLink({ channel });
    await get(`/s/${slug}`);
    const row = await rowOnce(channel, (r) => r.views, 1);
    expect(row.byPage).toEqual({ short: 1 });
    const byLink = await stats(`by=link&channel=${channel}`);
    expect(byLink.rows.map((r) => [r.key, r.views])).toEqual([[slug, 1]]);
  });

  it('answers 404 for an unknown slug', async () => {
    const res = await get('/s/no-such-link-here');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Page not found: /s/no-such-link-here');
  });

  it('answers 404 for a slug that is no slug', async () => {
    expect((await get('/s/Not_A_Slug')).status).toBe(404);
  });
});

describe('taps, installs, opens and app events', () => {
  it('counts a tap with its action under the page’s campaign', async () => {
    const channel = freshChannel();
    await post('/api/a/click', clickBody(PHONES.iPhone15, { d: tokenOf(channel), action: 'store' }));
    expect((await rowOnce(channel, (r) => r.taps, 1)).byAction).toEqual({ store: 1 });
  });

  it('counts a tap on a short link’s page under that link, and a forged page under none', async () => {
    const channel = freshChannel();
    const { slug, url } = await createLink({ channel });
    const token = new URL(url).searchParams.get('d') ?? '';
    const tapOn = (link: string, d: string) =>
      post('/api/a/click', { ...clickBody(PHONES.iPhone15, { d, action: 'open' }), link }, '198.51.100.21');
    expect((await tapOn(slug, token)).status).toBe(204);
    // The slug sent with another token is not that link's tap.
    expect((await tapOn(slug, tokenOf(channel))).status).toBe(204);
    await rowOnce(channel, (r) => r.taps, 2);
    const byLink = await stats(`by=link&channel=${channel}`);
    expect(Object.fromEntries(byLink.rows.map((r) => [r.key, r.taps]))).toEqual({ [slug]: 1, '': 1 });
  });

  it('counts an install once with its method, under the campaign of the answer, retries included', async () => {
    const channel = freshChannel();
    const d = tokenOf(channel);
    const body = installBody(PHONES.iPhone15, `install-${crypto.randomUUID()}`, {
      clipboard: `${await issueClickId()}.${d}`,
    });
    expect((await post('/api/a/install', body)).status).toBe(200);
    expect((await post('/api/a/install', body)).status).toBe(200);
    // An event after both answers: once it is counted, the retry's install would have been too.
    await post('/api/a/event', { app: body.app, installId: body.installId, name: 'register' });
    const row = await rowOnce(channel, (r) => r.events.register ?? 0, 1);
    expect([row.installs, row.byMethod]).toEqual([1, { clipboard: 1 }]);
  });

  it('counts an open, apart from installs', async () => {
    const channel = freshChannel();
    const carrier = `${await issueClickId()}.${tokenOf(channel)}`;
    await post('/api/a/open', { app: 'com.pebble.notes', installId: `open-${crypto.randomUUID()}`, carrier });
    expect((await rowOnce(channel, (r) => r.opens, 1)).installs).toBe(0);
  });
});

describe('POST /api/a/event', () => {
  it('answers 204 and counts the event and its value under the install’s campaign', async () => {
    const channel = freshChannel();
    const body = installBody(PHONES.iPhone15, `install-${crypto.randomUUID()}`, {
      clipboard: `${await issueClickId()}.${tokenOf(channel)}`,
    });
    await post('/api/a/install', body);
    const res = await post('/api/a/event', { app: body.app, installId: body.installId, name: 'purchase', value: 4.5 });
    expect(res.status).toBe(204);
    const row = await rowOnce(channel, (r) => r.events.purchase ?? 0, 1);
    expect(row.values).toEqual({ purchase: 4.5 });
  });

  it.each([
    ['a name out of bounds', { name: 'Sign Up!' }, 'name: names are a-z 0-9 _ . - (at most 40)'],
    ['a value that is no number', { name: 'register', value: '5' }, 'value'],
    ['an unknown field', { name: 'register', extra: 1 }, 'extra'],
    [
      'an app that is not configured',
      { name: 'register', app: 'com.other.app' },
      'app: "com.other.app" is not a configured app',
    ],
  ])('answers 400 with a message for %s', async (_, change, message) => {
    const res = await post('/api/a/event', { app: 'com.pebble.notes', installId: 'install-12345678', ...change });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(message);
  });

  it('answers 413 to a body over 20 KiB', async () => {
    const res = await post('/api/a/event', {
      app: 'com.pebble.notes',
      installId: 'x'.repeat(21_000),
      name: 'register',
    });
    expect(res.status).toBe(413);
  });

  it('is POST only', async () => {
    const res = await exports.default.fetch(new Request(`${ORIGIN}/api/a/event`));
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST']);
  });
});
