/**
 * A request's app (docs/routes.md#apps): from its host when an app lists it, else on a shared host
 * from a `/@<app>` prefix that the app's routes never see; a host or prefix of no app is the
 * not-found answer for people and bots alike; each app's pages read its own configuration.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { APPS_KEY } from '../../../shared/apps.ts';
import { CARRIER_SLOT } from '../../../shared/attribution.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { DEMO, demoWith } from '../../fixtures/config.ts';
import { fetchWorker, handoffOf } from '../helpers.ts';

const REGISTRY = {
  apps: [
    { id: 'default', name: 'Pebble', hosts: ['lander.test'] },
    { id: 'notes', name: 'Notes', hosts: ['go.notes.test'] },
    { id: 'pebble-beta', name: 'Pebble beta' },
  ],
};

/** A configuration whose page says `tagline`, so a page shows which app's document it read. */
const withTagline = (tagline: string) => demoWith({ commonConfig: { ...DEMO.commonConfig, tagline } });

function visit(url: string, userAgent: string = UA.iPhoneSafari, bindings: Partial<Env> = {}) {
  return fetchWorker(url, { headers: { 'user-agent': userAgent }, redirect: 'manual' }, bindings);
}

async function storeApps(registry: unknown) {
  await env.KV.put(APPS_KEY, typeof registry === 'string' ? registry : JSON.stringify(registry));
}

afterEach(async () => {
  for (const key of [APPS_KEY, 'config', 'config:notes', 'config:pebble-beta']) await env.KV.delete(key);
});

describe('an app by its host', () => {
  it("serves go.notes.test's pages from notes's configuration, and lander.test's from the default's", async () => {
    await storeApps(REGISTRY);
    await env.KV.put('config', JSON.stringify(withTagline('Default tagline')));
    await env.KV.put('config:notes', JSON.stringify(withTagline('Notes tagline')));
    const notes = await visit('https://go.notes.test/landing');
    expect(notes.status).toBe(200);
    const notesHtml = await notes.text();
    expect(notesHtml).toContain('Notes tagline');
    expect(notesHtml).not.toContain('Default tagline');
    expect(await (await visit('https://lander.test/landing')).text()).toContain('Default tagline');
  });

  it("refuses a prefix on an app's own host: /@pebble-beta/ on go.notes.test is not found", async () => {
    await storeApps(REGISTRY);
    expect((await visit('https://go.notes.test/@pebble-beta/landing')).status).toBe(404);
  });
});

describe('an app by its prefix on a shared host', () => {
  it("routes /@pebble-beta/landing as pebble-beta's /landing, and its API under /@pebble-beta/api", async () => {
    await storeApps(REGISTRY);
    await env.KV.put('config:pebble-beta', JSON.stringify(withTagline('Beta tagline')));
    const page = await visit('https://lander.test/@pebble-beta/landing');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Beta tagline');
    const health = await visit('https://lander.test/@pebble-beta/api/health');
    expect(await health.json()).toEqual({ ok: true });
  });

  it('keeps a route rule inside the app: /@pebble-beta/download goes to /@pebble-beta/', async () => {
    await storeApps(REGISTRY);
    const res = await visit('https://lander.test/@pebble-beta/download');
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('/@pebble-beta/');
  });

  it('takes a prefix on localhost in development even when the registry lists other hosts', async () => {
    await storeApps(REGISTRY);
    await env.KV.put('config:notes', JSON.stringify(withTagline('Notes tagline')));
    expect(await (await visit('http://localhost:8787/@notes/')).text()).toContain('Notes tagline');
  });
});

describe('a host or prefix of no app', () => {
  for (const [who, agent] of [
    ['a person', UA.iPhoneSafari],
    ['a bot', UA.googlebot],
  ] as const) {
    it(`answers an unknown host with 404 for ${who}, never a redirect`, async () => {
      await storeApps(REGISTRY);
      const res = await visit('https://elsewhere.test/landing', agent);
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('Page Not Found');
    });

    it(`answers an unknown prefix with 404 for ${who}`, async () => {
      await storeApps(REGISTRY);
      const res = await visit('https://lander.test/@nope/landing', agent);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('页面未找到');
    });
  }

  it('answers an API call under an unknown prefix with 404 JSON naming it', async () => {
    await storeApps(REGISTRY);
    const res = await visit('https://lander.test/@nope/api/health');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'No app at lander.test/@nope/api/health' });
  });

  it('answers an unknown prefix with 404 when there is no registry, too', async () => {
    expect((await visit('https://lander.test/@notes/landing')).status).toBe(404);
  });
});

describe('an app without its configuration', () => {
  it("serves the demo in development, as the default app's missing document does", async () => {
    await storeApps(REGISTRY);
    const res = await visit('https://go.notes.test/');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-config')).toBe('fallback');
  });

  it('answers 503 "not configured yet" in production, while the configured default app serves its page', async () => {
    await storeApps(REGISTRY);
    await env.KV.put('config', JSON.stringify(withTagline('Default tagline')));
    const production = { LANDER_ENV: 'production' };
    const notes = await visit('https://go.notes.test/', UA.iPhoneSafari, production);
    expect(notes.status).toBe(503);
    expect(await notes.text()).toContain('not configured yet');
    expect((await visit('https://lander.test/', UA.iPhoneSafari, production)).status).toBe(200);
  });
});

describe('a registry the worker cannot use', () => {
  it.each([
    ['not JSON', '{apps'],
    ['not a registry', { apps: [{ id: 'Bad Id', name: 'x' }] }],
  ])('that is %s leaves the last good registry in use: pages keep working', async (_what, registry) => {
    await storeApps(REGISTRY);
    await env.KV.put('config:notes', JSON.stringify(withTagline('Notes tagline')));
    expect((await visit('https://go.notes.test/')).status).toBe(200);
    await storeApps(registry);
    expect(await (await visit('https://go.notes.test/landing')).text()).toContain('Notes tagline');
    expect((await visit('https://elsewhere.test/landing')).status).toBe(404);
  });
});

describe("the links of an app's page under its prefix", () => {
  it('keep the prefix: the hand-off base, the canonical URL, the error page and the desktop QR code', async () => {
    await storeApps(REGISTRY);
    const html = await (await visit('https://lander.test/@notes/landing?channel=spring')).text();
    expect(handoffOf(html).handoff.base).toBe('/@notes');
    expect(html).toContain('<link rel="canonical" href="https://lander.test/@notes/landing"');
    // The link home is the router's, under its basename.
    expect(html).toMatch(/<nav class="links"><a href="\/@notes"/);
    const desktop = handoffOf(await (await visit('https://lander.test/@notes/', UA.desktop)).text());
    expect(desktop.handoff.download.qr.url).toBe('https://lander.test/@notes/');
    const missing = await visit('https://lander.test/@notes/nope');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('href="/@notes/"');
  });

  it("stay as they were on an app's own host and on the default app: no base", async () => {
    await storeApps(REGISTRY);
    for (const url of ['https://go.notes.test/landing', 'https://lander.test/landing']) {
      const html = await (await visit(url)).text();
      expect(handoffOf(html).handoff.base).toBe('');
      expect(html).toContain(`<link rel="canonical" href="${url}"`);
    }
  });

  it("answer a bot under the prefix with the app's metadata page, canonical at its base", async () => {
    await storeApps(REGISTRY);
    const res = await visit('https://lander.test/@notes/nope', UA.googlebot);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('href="https://lander.test/@notes/"');
  });
});

describe("an app's own stored things", () => {
  it("stamps an app's APK with its own parents record, not the default app's", async () => {
    await storeApps(REGISTRY);
    const facts = { file: 'pebble-sketch-1.2.0.apk', size: 1000, sha256: 'cd'.repeat(32), version: '1.2.0' };
    await env.KV.put('app:notes:apk:parents', JSON.stringify({ 'com.pebble.notes': facts }));
    const android = (url: string) => visit(url, UA.androidChrome).then(async (res) => handoffOf(await res.text()));
    const notes = await android('https://lander.test/@notes/');
    expect(notes.handoff.attribution.links['/android/pebble-notes-2.4.0.apk']).toBe(
      'https://lander.test/@notes/dl/{carrier}/pebble-sketch-1.2.0.apk'.replace('{carrier}', CARRIER_SLOT),
    );
    const own = await android('https://go.notes.test/');
    expect(own.handoff.attribution.links['/android/pebble-notes-2.4.0.apk']).toContain('https://go.notes.test/dl/');
    const main = await android('https://lander.test/');
    expect(main.handoff.attribution.links['/android/pebble-notes-2.4.0.apk']).toBeUndefined();
    await env.KV.delete('app:notes:apk:parents');
  });

  it("makes an app's short link under its prefix, and serves it there", async () => {
    await storeApps(REGISTRY);
    const made = await fetchWorker('https://lander.test/@notes/api/links', {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'sketchy' }),
    });
    expect(made.status).toBe(201);
    const link = (await made.json()) as { slug: string; shortUrl: string; qr: string };
    expect(link.shortUrl).toBe(`https://lander.test/@notes/s/${link.slug}`);
    expect(link.qr).toBe(`https://lander.test/@notes/s/${link.slug}.svg`);
    expect((await visit(link.shortUrl)).status).toBe(200);
  });
});
