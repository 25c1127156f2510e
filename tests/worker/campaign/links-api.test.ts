/**
 * The links API and short links' QR codes (docs/operators.md): minting with the worker's own key,
 * slugs made, taken or refused, expiry, and `resolveLink` for the `/s/<slug>` page.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { LinkView } from '../../../shared/admin-contract.ts';
import { resolveLink, SLUG } from '../../../worker/campaign/links.ts';
import { readCampaign } from '../../../worker/campaign/query-data.ts';
import { qrModules } from '../../../worker/lib/qr-code.ts';
import { DEV_ADMIN_TOKEN, DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { failingDb } from '../funnel-fixtures.ts';
import { fetchWorker } from '../helpers.ts';

const ORIGIN = 'https://lander.test';
const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };

const freshSlug = (): string => `s-${crypto.randomUUID().slice(0, 8)}`;

async function post(body: unknown, bindings: Partial<Env> = {}, headers: Record<string, string> = auth) {
  return fetchWorker(
    `${ORIGIN}/api/links`,
    { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) },
    { ...env, ...bindings },
  );
}

describe('POST /api/links', () => {
  it('mints a /landing link whose token carries the campaign, with its short and QR URLs', async () => {
    const slug = freshSlug();
    const res = await post({ channel: 'spring', inviter: 'Ann', data: { promo: 'x1' }, slug });
    expect(res.status).toBe(201);
    const link = await res.json<LinkView>();
    expect(link).toMatchObject({
      slug,
      shortUrl: `${ORIGIN}/s/${slug}`,
      qr: `${ORIGIN}/s/${slug}.svg`,
      qrPng: `${ORIGIN}/s/${slug}.png`,
      expiresAt: null,
    });
    const url = new URL(link.url);
    expect(url.pathname).toBe('/landing');
    expect(readCampaign(url.searchParams, DEV_DECODE_KEY).signed).toEqual({
      promo: 'x1',
      channel: 'spring',
      inviter: 'Ann',
    });
  });

  it('makes a slug when none is given', async () => {
    const link = await (await post({ channel: 'made' })).json<LinkView>();
    expect(link.slug).toMatch(SLUG);
    expect(link.shortUrl).toBe(`${ORIGIN}/s/${link.slug}`);
  });

  it('answers 409 for a slug already taken, and keeps the first link', async () => {
    const slug = freshSlug();
    await post({ channel: 'first', slug });
    const res = await post({ channel: 'second', slug });
    expect(res.status).toBe(409);
    expect((await res.json<{ error: string }>()).error).toContain('taken');
    expect((await resolveLink(env, 'default', slug))?.data).toEqual({ channel: 'first' });
  });

  it.each([
    [{ slug: 'ab' }, 'slug is 3 to 48'],
    [{ slug: 'Spring_Sale' }, 'slug is 3 to 48'],
    [{ slug: 'x'.repeat(49) }, 'slug is 3 to 48'],
    [{ channel: 'x', expiresAt: 'next week' }, 'expiresAt'],
    [{ channel: 'x', expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt is in the past'],
    [{ data: { __proto__x: 'y', 'bad key': 'z' } }, 'field names'],
    [{ channel: 'x', extra: 1 }, 'extra'],
    ['{not json', 'not JSON'],
  ])('refuses %j with 400 and says why', async (body, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain(message);
  });

  it('counts the bound in bytes, not characters: 22,000 Chinese characters are over 64 kB', async () => {
    const res = await post({ channel: 'x', rules: [{ when: `query.q == "${'春'.repeat(22_000)}"`, action: 'store' }] });
    expect(res.status).toBe(413);
  });

  it('refuses a body over 64 kB with 413', async () => {
    const res = await post({ channel: 'x', data: { note: 'n'.repeat(66_000) } });
    expect(res.status).toBe(413);
    expect((await res.json<{ error: string }>()).error).toContain('65536 bytes');
  });

  it('needs the admin token', async () => {
    expect((await post({ channel: 'x' }, {}, { 'content-type': 'application/json' })).status).toBe(401);
  });

  it('answers 503 where production has no decode key of its own', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await post(
      { channel: 'x' },
      { LANDER_ENV: 'production', ADMIN_TOKEN: 'prod-token' },
      { authorization: 'Bearer prod-token', 'content-type': 'application/json' },
    );
    expect(res.status).toBe(503);
    expect((await res.json<{ error: string }>()).error).toContain('DECODE_KEY');
    vi.restoreAllMocks();
  });

  it('lists the links made', async () => {
    const slug = freshSlug();
    await post({ channel: 'listed', slug });
    const res = await fetchWorker(`${ORIGIN}/api/links`, { headers: auth }, env);
    const { links } = await res.json<{ links: LinkView[] }>();
    expect(links.map((link) => link.slug)).toContain(slug);
  });
});

describe('resolveLink', () => {
  it('gives the token and data of a stored link', async () => {
    const slug = freshSlug();
    const made = await (await post({ inviter: 'Bo', slug })).json<LinkView>();
    const link = await resolveLink(env, 'default', slug);
    expect(link?.data).toEqual({ inviter: 'Bo' });
    expect(link?.token).toBe(new URL(made.url).searchParams.get('d'));
  });

  it('gives null once the link has expired', async () => {
    const slug = freshSlug();
    const expiresAt = new Date(Date.now() + 60_000);
    await post({ channel: 'soon', slug, expiresAt: expiresAt.toISOString() });
    expect(await resolveLink(env, 'default', slug, expiresAt.getTime() - 1)).not.toBeNull();
    expect(await resolveLink(env, 'default', slug, expiresAt.getTime())).toBeNull();
  });

  it('gives null for a slug never made, or not a slug at all, and for a failing store', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await resolveLink(env, 'default', 'never-made-slug')).toBeNull();
    expect(await resolveLink(env, 'default', '../etc')).toBeNull();
    const slug = freshSlug();
    await post({ channel: 'x', slug });
    expect(await resolveLink({ ...env, FUNNEL_DB: failingDb() }, 'default', slug)).toBeNull();
    vi.restoreAllMocks();
  });
});

describe('GET /s/<slug>.svg', () => {
  it('serves the short link’s QR code as SVG', async () => {
    const slug = freshSlug();
    await post({ channel: 'qr', slug });
    const res = await fetchWorker(`${ORIGIN}/s/${slug}.svg`, {}, env);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+"/);
  });

  it('serves the same code as a PNG, named for download, that decodes to the short link', async () => {
    const slug = freshSlug();
    await post({ channel: 'qr', slug });
    const res = await fetchWorker(`${ORIGIN}/s/${slug}.png`, {}, env);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="qr-${slug}.png"`);
    const png = new Uint8Array(await res.arrayBuffer());
    expect([...png.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    // IHDR: as wide as high, a whole number of modules of 12 pixels with the 4-module quiet zone.
    const header = new DataView(png.buffer, 16, 8);
    const [width, height] = [header.getUint32(0), header.getUint32(4)];
    expect(width).toBe(height);
    expect(width % 12).toBe(0);
    expect(width / 12 - 8).toBe(qrModules(`${ORIGIN}/s/${slug}`)?.length);
  });

  it('answers 404 for a link that does not exist', async () => {
    expect((await fetchWorker(`${ORIGIN}/s/never-made-slug.svg`, {}, env)).status).toBe(404);
    expect((await fetchWorker(`${ORIGIN}/s/never-made-slug.png`, {}, env)).status).toBe(404);
  });
});
