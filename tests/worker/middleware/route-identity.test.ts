/**
 * One route identity (docs/routes.md): every spelling the router accepts for a page — any case, a
 * trailing slash, an escaped letter — is that page for the funnel, the carrier copy, the short link
 * and the device table, and a not-found page names the path and query as they were asked.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../../client/app/route-handle.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import type { StatsResult } from '../../../worker/funnel/stats-query.ts';
import { pageAt } from '../../../worker/lib/page-of.ts';
import { DEV_ADMIN_TOKEN, DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { freshChannel } from '../funnel-fixtures.ts';
import { get, handoffOf, ORIGIN } from '../helpers.ts';

const ADMIN = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const CARRIER = 'Hq3x0v9gLwA8c2m5Yb7TnQ';

const tokenOf = (channel: string) => encryptToken(JSON.stringify({ channel, inviter: 'Ann Lee' }), DEV_DECODE_KEY);

/**
 * Every spelling the router reads as the same page: as written, in upper case, with a trailing slash,
 * with a letter escaped — of the page's own part of the path, `fixed`; its parameter stays as it is.
 */
function spellings(fixed: string, param = ''): string[] {
  const escaped = fixed.replace(/[a-z]/, (letter) => `%${letter.charCodeAt(0).toString(16)}`);
  return [`${fixed}${param}`, `${fixed.toUpperCase()}${param}`, `${fixed}${param}/`, `${escaped}${param}`];
}

async function stats(query: string): Promise<StatsResult> {
  const res = await exports.default.fetch(new Request(`${ORIGIN}/api/stats?${query}`, { headers: ADMIN }));
  expect(res.status).toBe(200);
  return res.json();
}

async function createLink(channel: string): Promise<string> {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/links`, {
      method: 'POST',
      headers: ADMIN,
      body: JSON.stringify({ channel, inviter: 'Ann Lee' }),
    }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { slug: string }).slug;
}

describe('the page a path is', () => {
  const cases: [string, Page][] = [
    ['/', 'download'],
    ['/landing', 'landing'],
    [`/i/${CARRIER}`, 'carrier'],
    ['/s/spring-sale', 'short'],
    ['/test', 'diagnostics'],
    ['/admin', 'admin'],
  ];
  for (const [path, page] of cases) {
    it(`reads every spelling of ${path} as the ${page} page`, () => {
      const [fixed = '/', param] = path.split(/(?<=^\/[is]\/)/);
      for (const spelling of path === '/' ? [path] : spellings(fixed, param)) expect(pageAt(spelling).page).toBe(page);
    });
  }

  it('keeps the carrier and the slug as the router decoded them', () => {
    expect(pageAt(`/I/${CARRIER}/`)).toEqual({ page: 'carrier', carrier: CARRIER });
    expect(pageAt('/S/spring%2Dsale')).toEqual({ page: 'short', slug: 'spring-sale' });
  });

  it('reads anything else as not found', () => {
    for (const path of ['/nope', '/landing/more', '/i/', '/s/a/b', '/tests'])
      expect(pageAt(path).page).toBe('not-found');
  });
});

describe('every spelling of a page', () => {
  it('counts the views of /landing, /i/<carrier> and / under their page, however spelled', async () => {
    const channel = freshChannel();
    const d = tokenOf(channel);
    const paths = [...spellings('/landing').map((path) => `${path}?d=${d}`), ...spellings('/i/', `${CARRIER}.${d}`)];
    for (const path of paths) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      await res.text();
    }
    await (await get(`/?d=${d}`)).text();
    await expect
      .poll(async () => (await stats(`by=channel&channel=${channel}`)).rows[0]?.views ?? 0, { timeout: 20_000 })
      .toBe(paths.length + 1);
    const [row] = (await stats(`by=channel&channel=${channel}`)).rows;
    expect(row?.byPage).toEqual({ landing: 4, carrier: 4, download: 1 });
  });

  it('copies the carrier on every spelling of the campaign pages', async () => {
    const d = tokenOf(freshChannel());
    for (const path of [...spellings('/landing'), ...spellings('/i/', CARRIER)]) {
      const handoff = handoffOf(await (await get(`${path}?d=${d}`)).text());
      expect(handoff.handoff.attribution.copy, path).toBe(true);
    }
  });

  it("shows a short link's campaign, counts its views under the link and hands its slug to the taps, however spelled", async () => {
    const channel = freshChannel();
    const slug = await createLink(channel);
    const paths = spellings('/s/', slug);
    for (const path of paths) {
      const html = await (await get(path)).text();
      const { handoff: store } = handoffOf(html);
      // The link's token is read (its channel stays out of the page: counted below).
      expect(store.campaign.token, path).toBeTruthy();
      expect(html.replaceAll(`ct=${channel}`, ''), path).not.toContain(channel);
      expect(store.attribution).toMatchObject({ copy: true, link: slug });
    }
    await expect
      .poll(async () => (await stats(`by=link&channel=${channel}`)).rows[0]?.views ?? 0, { timeout: 20_000 })
      .toBe(paths.length);
    const [row] = (await stats(`by=link&channel=${channel}`)).rows;
    expect(row).toMatchObject({ key: slug, byPage: { short: paths.length } });
  });

  it('answers 404 for an unknown short link, however spelled', async () => {
    for (const path of spellings('/s/', 'no-such-link')) expect((await get(path)).status, path).toBe(404);
  });

  it('shows the whole detection on every spelling of /test', async () => {
    for (const path of spellings('/test')) {
      const { handoff: store } = handoffOf(await (await get(path)).text());
      expect(store.deviceInfo, path).toHaveProperty('userAgent');
    }
  });
});

describe('a page that is not found', () => {
  it('names the path and the query as they were asked', async () => {
    const res = await get('/nope?q=1');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Page not found: /nope?q=1');
  });

  it('is never kept: another query is named in its own page', async () => {
    await (await get('/nope?q=1')).text();
    const second = await get('/nope?q=2&r=%3Cb%3E');
    const html = await second.text();
    expect(html).toContain('Page not found: /nope?q=2&amp;r=%3Cb%3E');
    expect(second.headers.get('server-timing')).toBeNull();
  });

  it('names the query of an unknown short link too', async () => {
    expect(await (await get('/s/no-such-link?from=mail')).text()).toContain(
      'Page not found: /s/no-such-link?from=mail',
    );
  });
});
