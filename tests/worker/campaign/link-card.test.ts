/**
 * A link's preview card (docs/smart-links.md#previews), through the real worker and R2: uploaded with
 * `PUT /api/links/<slug>/card` (a 1200×630 PNG of at most 300 kB, else a 400 naming why), served at
 * `/s/<slug>/card.png` with a year's caching and an ETag that answers 304, and gone with its link;
 * never shown while its link is expired or protected by a password, nor under another app.
 */
import { env, exports } from 'cloudflare:workers';
import { encode } from 'fast-png';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS_KEY } from '../../../shared/apps.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { get, ORIGIN } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };

function admin(path: string, method: string, body?: string): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body }),
  );
}

async function makeLink(prefix = ''): Promise<string> {
  const slug = `c-${crypto.randomUUID().slice(0, 8)}`;
  const res = await admin(
    `${prefix}/api/links`,
    'POST',
    JSON.stringify({ slug, preview: { title: 'Card', image: 'card' } }),
  );
  expect(res.status).toBe(201);
  return slug;
}

/** A real PNG of `width`×`height`, one colour. */
function png(width: number, height: number, colour = [9, 157, 86]): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  for (let at = 0; at < data.length; at += 3) data.set(colour, at);
  return encode({ width, height, data, channels: 3 });
}

const base64 = (bytes: Uint8Array): string => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));
const putCard = (slug: string, bytes: Uint8Array, prefix = '') =>
  admin(`${prefix}/api/links/${slug}/card`, 'PUT', JSON.stringify({ png: base64(bytes) }));

beforeAll(async () => {
  const apps = ['default', 'alpha', 'beta'].map((id) => ({ id, name: id }));
  await env.KV.put(APPS_KEY, JSON.stringify({ apps }));
});

afterAll(async () => {
  await env.KV.delete(APPS_KEY);
});

describe("a link's card", () => {
  it('is served as uploaded, cached for a year, with an ETag that answers 304', async () => {
    const slug = await makeLink();
    const card = png(1200, 630);
    const put = await putCard(slug, card);
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ card: `${ORIGIN}/s/${slug}/card.png` });
    const res = await get(`/s/${slug}/card.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(card);
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const again = await get(`/s/${slug}/card.png`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('is a 404 before one is uploaded and after its link is deleted', async () => {
    const slug = await makeLink();
    expect((await get(`/s/${slug}/card.png`)).status).toBe(404);
    expect((await putCard(slug, png(1200, 630))).status).toBe(200);
    expect((await admin(`/api/links/${slug}`, 'DELETE')).status).toBe(204);
    expect((await get(`/s/${slug}/card.png`)).status).toBe(404);
  });

  it.each([
    ['another size', png(1200, 600), 'card: 1200×600, not 1200×630'],
    ['not a PNG', new TextEncoder().encode('GIF89a, not a PNG at all'), 'card: not a PNG'],
  ])('is refused with 400 when %s', async (_, bytes, error) => {
    const slug = await makeLink();
    const res = await putCard(slug, bytes);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error });
  });

  it('is refused over 300 kB (400 naming it, 413 past the body limit), and 404 for no such link', async () => {
    const slug = await makeLink();
    const over = await putCard(slug, new Uint8Array(300_001));
    expect(over.status).toBe(400);
    expect(await over.json()).toEqual({ error: 'card: larger than 300000 bytes' });
    expect((await putCard(slug, new Uint8Array(320_000))).status).toBe(413);
    expect((await putCard('no-such-link-z', png(1200, 630))).status).toBe(404);
  });

  it('is a 404 while its link is protected by a password or expired, and served again once it is open', async () => {
    const slug = await makeLink();
    expect((await putCard(slug, png(1200, 630))).status).toBe(200);
    const locked = await admin(`/api/links/${slug}`, 'PATCH', JSON.stringify({ password: 'correct horse' }));
    expect(locked.status).toBe(200);
    const hidden = await get(`/s/${slug}/card.png`);
    expect(hidden.status).toBe(404);
    expect(hidden.headers.get('etag')).toBeNull();
    const opened = await admin(`/api/links/${slug}`, 'PATCH', JSON.stringify({ password: null }));
    expect(opened.status).toBe(200);
    expect((await get(`/s/${slug}/card.png`)).status).toBe(200);
    await env.FUNNEL_DB.prepare('UPDATE funnel_links SET expires_at = ?2 WHERE slug = ?1')
      .bind(slug, Date.now() - 1)
      .run();
    expect((await get(`/s/${slug}/card.png`)).status).toBe(404);
  });

  it("is its own app's: another app's link of the same slug shows none, and cannot take one of a slug it lacks", async () => {
    const slug = await makeLink('/@alpha');
    const card = png(1200, 630);
    expect((await putCard(slug, card, '/@alpha')).status).toBe(200);
    expect((await putCard(slug, card, '/@beta')).status).toBe(404);
    expect((await get(`/@beta/s/${slug}/card.png`)).status).toBe(404);
    expect((await get(`/s/${slug}/card.png`)).status).toBe(404);
    const res = await admin('/@beta/api/links', 'POST', JSON.stringify({ slug }));
    expect(res.status).toBe(201);
    expect((await get(`/@beta/s/${slug}/card.png`)).status).toBe(404);
    expect(new Uint8Array(await (await get(`/@alpha/s/${slug}/card.png`)).arrayBuffer())).toEqual(card);
  });
});
