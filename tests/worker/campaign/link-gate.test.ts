/**
 * What a short link shows before its page (docs/smart-links.md#links), through the real worker: an
 * expired link's 410 page and a protected link's password form, each showing the app and nothing of
 * the link's campaign; the password kept only as its PBKDF2 hash; the cookie a right password sets;
 * wrong tries answered with the form's error and limited per link and address; rules run only after
 * the password; a protected page never kept for the next visitor.
 */
import { env, exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LinkView } from '../../../shared/admin-contract.ts';
import {
  hashPassword,
  passCookieOpens,
  passCookieValue,
  passwordMatches,
} from '../../../worker/campaign/link-password.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { fetchWorker, get, handoffOf, ORIGIN } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const freshSlug = (): string => `g-${crypto.randomUUID().slice(0, 8)}`;
const INVITER = 'Zelda-Inviter-7';

async function api(path: string, method: string, body: unknown): Promise<Response> {
  return fetchWorker(`${ORIGIN}/api/links${path}`, { method, headers: auth, body: JSON.stringify(body) }, env);
}

async function makeLink(extra: Record<string, unknown> = {}): Promise<LinkView> {
  const res = await api('', 'POST', { inviter: INVITER, channel: 'gate-test', slug: freshSlug(), ...extra });
  expect(res.status).toBe(201);
  return res.json<LinkView>();
}

const expire = (slug: string) =>
  env.FUNNEL_DB.prepare('UPDATE funnel_links SET expires_at = ?2 WHERE slug = ?1')
    .bind(slug, Date.now() - 1)
    .run();

function postPassword(
  slug: string,
  password: string,
  address = '203.0.113.7',
  userAgent = UA.iPhoneSafari,
  from: Record<string, string> = {},
) {
  return exports.default.fetch(
    new Request(`${ORIGIN}/s/${slug}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'user-agent': userAgent,
        'content-type': 'application/x-www-form-urlencoded',
        'cf-connecting-ip': address,
        ...from,
      },
      body: new URLSearchParams({ password }).toString(),
    }),
  );
}

/** What no page of a link's gate may carry: its campaign or its token. */
function expectNothingOfTheLink(html: string, link: LinkView): void {
  expect(html).not.toContain(INVITER);
  expect(html).not.toContain('gate-test');
  expect(html).not.toContain(new URL(link.url).searchParams.get('d'));
  expect(handoffOf(html)).toBeNull();
}

describe('an expired link', () => {
  it('answers 410 saying so (en, zh-CN), with the app and its download, and nothing of the link', async () => {
    const link = await makeLink({ expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await expire(link.slug);
    const en = await get(`/s/${link.slug}`, { headers: { 'accept-language': 'en' } });
    expect(en.status).toBe(410);
    expect(en.headers.get('cache-control')).toBe('private, no-store');
    const html = await en.text();
    expect(html).toContain('This link has expired');
    expect(html).toMatch(/<a class="action" href="[^"]+">Download /);
    expectNothingOfTheLink(html, link);
    const zh = await (await get(`/s/${link.slug}`, { headers: { 'accept-language': 'zh-CN' } })).text();
    expect(zh).toContain('此链接已过期');
    // A space between the Chinese words and the app's Latin name, as the app's own pages write it.
    expect(zh).toMatch(/>下载 Pebble 笔记<\/a>/);
    expectNothingOfTheLink(zh, link);
  });

  it('gives a bot the site metadata with 410, never the campaign; a slug never made stays 404', async () => {
    const link = await makeLink({ expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await expire(link.slug);
    const bot = await get(`/s/${link.slug}`, { userAgent: UA.whatsapp });
    expect(bot.status).toBe(410);
    const html = await bot.text();
    expect(html).toContain('og:title');
    expectNothingOfTheLink(html, link);
    expect((await get('/s/never-made-gate')).status).toBe(404);
  });

  it('is 410 to a post too, as to a get', async () => {
    const link = await makeLink({ password: 'correct horse', expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await expire(link.slug);
    expect((await postPassword(link.slug, 'correct horse')).status).toBe(410);
  });
});

describe('a link with a password', () => {
  it('keeps only a salted PBKDF2 hash, shows hasPassword and never the hash', async () => {
    const link = await makeLink({ password: 'correct horse' });
    expect(link.hasPassword).toBe(true);
    const row = await env.FUNNEL_DB.prepare('SELECT password FROM funnel_links WHERE slug = ?1')
      .bind(link.slug)
      .first<{ password: string }>();
    expect(row?.password).toMatch(/^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    expect(row?.password).not.toContain('correct horse');
    const shown = await (await fetchWorker(`${ORIGIN}/api/links/${link.slug}`, { headers: auth }, env)).text();
    expect(shown).not.toContain('pbkdf2');
    expect(JSON.parse(shown).hasPassword).toBe(true);
    const audit = await env.FUNNEL_DB.prepare('SELECT * FROM audit_entries WHERE target = ?1').bind(link.slug).all();
    expect(JSON.stringify(audit.results)).not.toContain('pbkdf2');
  });

  it('refuses a password under 8 or over 128 characters, naming the field', async () => {
    for (const password of ['short', 'x'.repeat(129)]) {
      const res = await api('', 'POST', { slug: freshSlug(), password });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('password');
    }
  });

  it('two hashes of one password differ (salted) and each checks; 100,000 iterations within the CPU budget', async () => {
    const started = performance.now();
    const one = await hashPassword('same password');
    const took = performance.now() - started;
    const two = await hashPassword('same password');
    expect(one).not.toBe(two);
    expect(await passwordMatches('same password', one)).toBe(true);
    expect(await passwordMatches('other password', two)).toBe(false);
    console.log(`PBKDF2-SHA-256, 100,000 iterations: ${took.toFixed(1)} ms`);
    // Cloudflare's runtime refuses more than 100,000: a stored hash naming more is refused unread.
    expect(await passwordMatches('x', await hashPassword('x', 100_001))).toBe(false);
  });

  it('shows the form (en, zh-CN) with nothing of the link, and never its rules before the password', async () => {
    const link = await makeLink({ password: 'correct horse', rules: [{ when: 'true', action: 'store' }] });
    const res = await get(`/s/${link.slug}`, { userAgent: UA.androidChrome, headers: { 'accept-language': 'en' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const html = await res.text();
    expect(html).toContain('<input id="password" name="password" type="password"');
    expect(html).toContain('This link is protected');
    expectNothingOfTheLink(html, link);
    const zh = await (await get(`/s/${link.slug}`, { headers: { 'accept-language': 'zh-CN' } })).text();
    expect(zh).toContain('此链接受密码保护');
    const bot = await get(`/s/${link.slug}`, { userAgent: UA.whatsapp });
    expect(bot.status).toBe(200);
    expectNothingOfTheLink(await bot.text(), link);
  });

  it('a wrong password answers the form with its error (400); the right one sets the cookie and sends back', async () => {
    const link = await makeLink({ password: 'correct horse', rules: [{ when: 'true', action: 'store' }] });
    const wrong = await postPassword(link.slug, 'wrong horse', '203.0.113.20');
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('Wrong password');
    expectNothingOfTheLink(wrongHtml, link);

    const right = await postPassword(link.slug, 'correct horse', '203.0.113.20', UA.androidChrome);
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe(`/s/${link.slug}`);
    const cookie = right.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toContain(`Path=/s/${link.slug}`);
    expect(cookie).toContain('Secure');
    const pair = cookie.split(';')[0] ?? '';
    // Past the password, the rules run: this one sends an Android visitor to the store.
    const ruled = await get(`/s/${link.slug}`, { userAgent: UA.androidChrome, headers: { cookie: pair } });
    expect(ruled.status).toBe(302);
    // A forged or another link's cookie opens nothing.
    const forged = pair.replace(/=(\d+)\./, '=9999999999999.');
    expect((await get(`/s/${link.slug}`, { userAgent: UA.androidChrome, headers: { cookie: forged } })).status).toBe(
      200,
    );
  });

  it('shows the page only with the cookie, and never keeps it for the next visitor', async () => {
    const link = await makeLink({ password: 'correct horse' });
    const right = await postPassword(link.slug, 'correct horse', '203.0.113.30');
    const pair = (right.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    for (let i = 0; i < 2; i += 1) {
      const page = await get(`/s/${link.slug}`, { headers: { cookie: pair } });
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('private, no-store');
      expect(handoffOf(await page.text()).handoff.campaign.signed.inviter).toBe(INVITER);
    }
    const stranger = await (await get(`/s/${link.slug}`)).text();
    expectNothingOfTheLink(stranger, link);
  });

  it('limits tries per link and address: past 10 a minute, 429 with the form', async () => {
    const link = await makeLink({ password: 'correct horse' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push((await postPassword(link.slug, `wrong ${i}xxxx`, '198.51.100.9')).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
    // Another address is not held by this one's tries.
    expect((await postPassword(link.slug, 'correct horse', '198.51.100.10')).status).toBe(303);
  });

  it("refuses a post from another site's page (403, no cookie, no try counted), whatever the slug", async () => {
    const link = await makeLink({ password: 'correct horse' });
    const address = '198.51.100.40';
    const others: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://elsewhere.example' },
    ];
    for (const from of others) {
      for (const slug of [link.slug, freshSlug()]) {
        const res = await postPassword(slug, 'correct horse', address, UA.iPhoneSafari, from);
        expect(res.status).toBe(403);
        expect(res.headers.get('set-cookie')).toBeNull();
      }
    }
    // The form's own post, as the browser sends it, still opens the link from that address.
    const own = await postPassword(link.slug, 'correct horse', address, UA.iPhoneSafari, {
      'sec-fetch-site': 'same-origin',
      origin: ORIGIN,
    });
    expect(own.status).toBe(303);
    expect(own.headers.get('set-cookie')).toContain('lander_link_');
  });

  it('refuses a form over 2048 bytes with 413 unread, by its length or as it streams', async () => {
    const link = await makeLink({ password: 'correct horse' });
    const big = await postPassword(link.slug, 'x'.repeat(4096), '198.51.100.50');
    expect(big.status).toBe(413);
    const chunk = new TextEncoder().encode(`password=${'y'.repeat(1000)}`);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const streamed = await exports.default.fetch(
      new Request(`${ORIGIN}/s/${link.slug}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'cf-connecting-ip': '198.51.100.51' },
        body: endless,
      }),
    );
    expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(10);
    // A form within the bound is read as before.
    expect((await postPassword(link.slug, 'correct horse', '198.51.100.52')).status).toBe(303);
  });

  it('a post tells no more than the page: unknown 404, open link back to its page, other pages 405', async () => {
    expect((await postPassword('never-made-gate', 'whatever1')).status).toBe(404);
    const open = await makeLink();
    const back = await postPassword(open.slug, 'whatever1');
    expect(back.status).toBe(303);
    expect(back.headers.get('set-cookie')).toBeNull();
    expect((await get('/landing', { method: 'POST' })).status).toBe(405);
  });

  it('PATCH sets and removes the password; removing it voids the cookie and opens the page', async () => {
    const link = await makeLink();
    const set = await api(`/${link.slug}`, 'PATCH', { password: 'new password 1' });
    expect((await set.json<LinkView>()).hasPassword).toBe(true);
    expect((await get(`/s/${link.slug}`)).headers.get('cache-control')).toBe('private, no-store');
    const removed = await api(`/${link.slug}`, 'PATCH', { password: null });
    expect((await removed.json<LinkView>()).hasPassword).toBe(false);
    const page = await (await get(`/s/${link.slug}`)).text();
    expect(handoffOf(page).handoff.campaign.signed.inviter).toBe(INVITER);
    expect((await api(`/${link.slug}`, 'PATCH', { password: 'short' })).status).toBe(400);
  });
});

describe('the password and its cookie, for any password and slug', () => {
  it('a hash matches its own password only; a cookie opens its own link, before its expiry, only', async () => {
    const password = fc.string({ unit: 'grapheme', minLength: 8, maxLength: 40 });
    const slug = fc.stringMatching(/^[a-z0-9-]{3,12}$/);
    await fc.assert(
      fc.asyncProperty(password, password, slug, slug, async (one, other, mine, theirs) => {
        const stored = await hashPassword(one, 1000);
        expect(await passwordMatches(one, stored)).toBe(true);
        expect(await passwordMatches(other, stored)).toBe(one === other);
        const now = Date.now();
        const cookie = await passCookieValue(stored, mine, now);
        expect(await passCookieOpens(cookie, stored, mine, now)).toBe(true);
        expect(await passCookieOpens(cookie, stored, theirs, now)).toBe(mine === theirs);
        expect(await passCookieOpens(cookie, stored, mine, now + 3600_000)).toBe(false);
        // Another password for the same link voids the cookie.
        expect(await passCookieOpens(cookie, await hashPassword(one, 1000), mine, now)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });
});
