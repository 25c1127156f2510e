import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { matchesAppLinkPath } from '../../../worker/app-links/app-link-fallback.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { AGENTS, UA } from '../../fixtures/agents.ts';
import { DEMO as demo } from '../../fixtures/config.ts';
import { clearConfig, fetchWorker, get, storeConfig } from '../helpers.ts';

async function seedPaths(paths: string[]): Promise<void> {
  await storeConfig({ ...demo, links: { ...demo.links, paths } });
}

afterEach(async () => {
  await clearConfig();
});

const D = encryptToken(JSON.stringify({ channel: 'spring', inviter: 'Ann Lee' }), DEV_DECODE_KEY);
const APP_STORE = 'https://apps.apple.com/app/id6740858208';
const APK = `${env.DOWNLOAD_ORIGIN}/android/pebble-notes-2.4.0.apk`;

describe('app links that reach the browser (the app is not installed)', () => {
  it('send an iPhone on to the App Store, its campaign from the signed token, never from a plain parameter', async () => {
    const res = await get(`/open/?d=${D}&channel=forged`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${APP_STORE}?pt=118342&ct=spring`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect((await get('/open/?channel=plain')).headers.get('location')).toBe(`${APP_STORE}?pt=118342&ct=plain`);
  });

  it('send Android on to its download, HarmonyOS NEXT to AppGallery, as the download page offers', async () => {
    expect((await get(`/open/?d=${D}`, { userAgent: UA.androidChrome })).headers.get('location')).toBe(APK);
    expect((await get('/open/', { userAgent: UA.androidFirefox })).headers.get('location')).toBe(APK);
    expect((await get(`/open/?d=${D}`, { userAgent: AGENTS.harmonyNext.agent })).headers.get('location')).toBe(
      'https://appgallery.huawei.com/app/detail?id=C110123456',
    );
  });

  it('send a desktop, a bot and an in-app browser that blocks the download to /landing, keeping d', async () => {
    for (const userAgent of [UA.desktop, UA.googlebot, AGENTS.weChatAndroid.agent]) {
      const res = await get(`/open/?d=${D}&channel=spring&utm_source=mail`, { userAgent });
      expect(res.status).toBe(307);
      expect(res.headers.get('location')).toBe(`/landing?d=${D}&channel=spring`);
    }
    const bare = await get('/open/', { userAgent: UA.desktop });
    expect(bare.headers.get('location')).toBe('/landing');
  });

  it("send HarmonyOS NEXT's App Linking link on the link domain to AppGallery; elsewhere it is the carrier page", async () => {
    const carrier = `${'a'.repeat(22)}.${D}`;
    const onLinkDomain = (userAgent: string) =>
      fetchWorker(`https://open.pebble-notes.example/i/${carrier}`, {
        headers: { 'user-agent': userAgent },
        redirect: 'manual',
      });
    const harmony = await onLinkDomain(AGENTS.harmonyNext.agent);
    expect(harmony.status).toBe(302);
    expect(harmony.headers.get('location')).toBe('https://appgallery.huawei.com/app/detail?id=C110123456');
    expect((await onLinkDomain(UA.iPhoneSafari)).headers.get('location')).toBe(`${APP_STORE}?pt=118342&ct=spring`);
    for (const userAgent of [UA.desktop, UA.googlebot]) expect((await onLinkDomain(userAgent)).status).toBe(200);
    expect((await get(`/i/${carrier}`, { userAgent: AGENTS.harmonyNext.agent })).status).toBe(200);
  });

  it('where the page serves mainland China, send Android to /landing, whose APK asks first; iPhone still to the App Store', async () => {
    await storeConfig({ ...demo, china: { mainland: true } });
    const android = await get(`/open/?d=${D}`, { userAgent: UA.androidChrome });
    expect(android.status).toBe(307);
    expect(android.headers.get('location')).toBe(`/landing?d=${D}`);
    expect((await get(`/open/?d=${D}`)).headers.get('location')).toBe(`${APP_STORE}?pt=118342&ct=spring`);
  });

  it('follow the configured paths, read from KV on each request', async () => {
    await seedPaths(['/go/*', '/invite/?????']);
    const desktop = { userAgent: UA.desktop };
    expect((await get('/go/x?channel=a', desktop)).headers.get('location')).toBe('/landing?channel=a');
    expect((await get('/invite/ab12c', desktop)).headers.get('location')).toBe('/landing');
    expect((await get('/invite/ab12')).status).toBe(404);
    expect((await get('/open/')).status).toBe(404);
  });

  it('never take a page Lander has, even when a pattern covers every path', async () => {
    await seedPaths(['/*']);
    expect((await get('/')).status).toBe(200);
    expect((await get('/landing?channel=a')).status).toBe(200);
    expect((await get('/somewhere', { userAgent: UA.desktop })).headers.get('location')).toBe('/landing');
  });

  it('leave other unknown paths a 404', async () => {
    expect((await get('/opener')).status).toBe(404);
    expect((await get('/open')).status).toBe(404);
  });

  it('redirect only to this site or the configured download: the request gives its query, never the target', async () => {
    for (const path of ['/open//evil.com', '/open/%2F%2Fevil.com', '/open/\\evil.com', '/open/?next=//evil.com']) {
      for (const userAgent of [UA.desktop, UA.iPhoneSafari]) {
        // A path with an empty segment first goes to its one address (docs/routes.md), then on.
        let location = (await get(path, { userAgent })).headers.get('location') ?? '';
        if (new URL(location, 'https://lander.test').host === 'lander.test' && !location.startsWith('/landing')) {
          location = (await get(location, { userAgent })).headers.get('location') ?? '';
        }
        const expected = userAgent === UA.desktop ? 'https://lander.test/landing' : `${APP_STORE}?pt=118342`;
        expect(new URL(location, 'https://lander.test').href).toBe(expected);
      }
    }
  });
});

describe('matchesAppLinkPath', () => {
  it('reads * as any characters and ? as one; other characters literally', () => {
    expect(matchesAppLinkPath('/open/*', '/open/')).toBe(true);
    expect(matchesAppLinkPath('/open/*', '/open/a/b')).toBe(true);
    expect(matchesAppLinkPath('/open/*', '/opens/')).toBe(false);
    expect(matchesAppLinkPath('/p/?', '/p/x')).toBe(true);
    expect(matchesAppLinkPath('/p/?', '/p/xy')).toBe(false);
    expect(matchesAppLinkPath('/a.b+(c)', '/a.b+(c)')).toBe(true);
    expect(matchesAppLinkPath('/a.b', '/aXb')).toBe(false);
    expect(matchesAppLinkPath('/*/x/*/y', '/a/x/b/x/c/y')).toBe(true);
    expect(matchesAppLinkPath('/*/x/*/y', '/a/x/b/x/c/z')).toBe(false);
    expect(matchesAppLinkPath('/**', '/')).toBe(true);
  });

  it('answers for a 16 KB path against a pattern of many stars (a backtracking regex would not finish)', () => {
    const path = `/${'a'.repeat(16_384)}`;
    expect(matchesAppLinkPath('/*a*a*a*a*a*a*a*a*b', path)).toBe(false);
    expect(matchesAppLinkPath('/*a*a*a*a*a*a*a*a', path)).toBe(true);
  });
});
