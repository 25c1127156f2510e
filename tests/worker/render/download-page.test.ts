import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LanderConfigInput } from '../../../shared/config/schema.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { decodeQrImage } from '../../fixtures/qr-image.ts';
import { clearConfig, fetchWorker, get, handoffOf, ORIGIN, storeConfig } from '../helpers.ts';

/** A configuration that differs from the demo in every field the page shows. */
function testConfig(change: (c: LanderConfigInput) => void = () => {}): LanderConfigInput {
  const config: LanderConfigInput = {
    revision: 'test-rev-42',
    appData: [
      {
        plat: 1,
        logo_url: 'https://cdn.test/tern.png',
        name: { en: 'Tern Maps', 'zh-CN': '燕鸥地图' },
        version: '9.8.7',
        size: '12.3 MB',
        updated_at: '2026-03-04',
        download_url: '/apk/tern-9.8.7.apk',
        store_url: 'https://store.test/tern',
      },
      {
        plat: 2,
        logo_url: 'https://cdn.test/tern.png',
        name: 'Tern Maps',
        version: '9.9.0',
        size: '40.1 MB',
        updated_at: '2026-03-05',
        app_store_id: '6740858208',
      },
    ],
    domains: ['https://dl-a.test', 'https://dl-b.test'],
    commonConfig: {
      tagline: { en: 'Maps for the way back', 'zh-CN': '回家的地图' },
      description: { en: 'Tern Maps: offline maps.', 'zh-CN': '燕鸥地图：离线地图。' },
      features: [{ en: 'Offline tiles', 'zh-CN': '离线瓦片' }],
      screenshots: [{ url: '/shots/1.png', alt: 'Map view' }],
      og_image: 'https://cdn.test/og.png',
    },
  };
  change(config);
  return config;
}

async function seed(config: unknown): Promise<void> {
  await storeConfig(config);
}

/** The `<a>` of the primary button in server HTML. */
/** The QR image of a desktop page. */
function qrSrc(html: string): string {
  const src = /<img class="qr-code" src="(data:image\/bmp;base64,[A-Za-z0-9+/=]+)"/.exec(html)?.[1];
  if (!src) throw new Error('the page has no QR image');
  return src;
}

function primary(html: string): { href: string; kind: string } | null {
  const m = /<a class="button button-primary" href="([^"]*)" data-kind="([^"]*)"/.exec(html);
  return m ? { href: m[1] ?? '', kind: m[2] ?? '' } : null;
}

afterEach(async () => {
  await clearConfig();
  vi.restoreAllMocks();
});

describe('the button in the server HTML, from the seeded config', () => {
  it('sends an iPhone to the App Store id 6740858208', async () => {
    await seed(testConfig());
    const html = await (await get('/', { userAgent: UA.iPhoneSafari })).text();
    expect(primary(html)).toEqual({ href: 'https://apps.apple.com/app/id6740858208', kind: 'app-store' });
    expect(html).toContain('9.9.0');
  });

  it('sends Android to the APK on the download origin from wrangler.toml', async () => {
    await seed(testConfig());
    const html = await (await get('/', { userAgent: UA.androidChrome })).text();
    expect(primary(html)).toEqual({ href: `${env.DOWNLOAD_ORIGIN}/apk/tern-9.8.7.apk`, kind: 'apk' });
    expect(html).toContain('12.3 MB');
  });

  it('sends HarmonyOS to AppGallery when an AppGallery id is configured', async () => {
    await seed(testConfig((c) => Object.assign(c.appData[0] ?? {}, { appgallery_id: 'C10099' })));
    const html = await (await get('/', { userAgent: UA.harmonyNext })).text();
    expect(primary(html)).toEqual({ href: 'https://appgallery.huawei.com/app/detail?id=C10099', kind: 'appgallery' });
  });

  it('gives HarmonyOS 2–4 the APK when AppGallery is not configured', async () => {
    await seed(testConfig());
    const html = await (await get('/', { userAgent: UA.harmony4 })).text();
    expect(primary(html)?.kind).toBe('apk');
  });

  it('gives HarmonyOS NEXT a note instead of an APK it cannot install', async () => {
    await seed(testConfig());
    const html = await (await get('/', { userAgent: UA.harmonyNext })).text();
    expect(primary(html)).toBeNull();
    expect(html).toContain('class="download-note"');
  });

  it('gives a desktop a QR code of the page address and both store buttons', async () => {
    await seed(testConfig());
    const html = await (await get('/?channel=mail&x=1', { userAgent: UA.desktop })).text();
    const src = qrSrc(html);
    expect(decodeQrImage(src)).toBe('https://lander.test/?channel=mail');
    expect(html).toContain('data-url="https://lander.test/?channel=mail"');
    const stores = [...html.matchAll(/<a class="button button-store" href="([^"]*)"/g)].map((m) => m[1]);
    expect(stores).toEqual(['https://apps.apple.com/app/id6740858208', `${env.DOWNLOAD_ORIGIN}/apk/tern-9.8.7.apk`]);
    expect(primary(html)).toBeNull();
  });

  it('gives a 2 kB desktop URL a scannable code of its page address, drawn once, in a page under 40 kB', async () => {
    await seed(testConfig());
    const tracking = `fbclid=${'IwAR'.repeat(250)}&gclid=${'Cj0K'.repeat(50)}&note=${'n'.repeat(250)}`;
    const campaign = `channel=spring&inviter=${'Ann'.repeat(80)}`;
    const path = `/?${tracking}&${campaign}&ref=${'r'.repeat(250)}`;
    expect(`https://lander.test${path}`.length).toBeGreaterThan(1900);
    const res = await get(path, { userAgent: UA.desktop });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(new TextEncoder().encode(html).byteLength).toBeLessThanOrEqual(40_000);
    const src = qrSrc(html);
    expect(decodeQrImage(src)).toBe(`https://lander.test/?${campaign}`);
    expect(html.split(src.slice(-40))).toHaveLength(2);
    expect(handoffOf(html).handoff.download.qr?.src).toBe('');
  });

  it('gives a 2 kB page address (a long token, channel and inviter) a scannable code in a page under 40 kB', async () => {
    await seed(testConfig());
    const payload = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, String(i).repeat(245)]));
    const d = encryptToken(JSON.stringify(payload), DEV_DECODE_KEY);
    const path = `/?d=${d}&channel=${'c'.repeat(245)}&inviter=${'i'.repeat(245)}`;
    expect(`https://lander.test${path}`.length).toBeGreaterThan(2000);
    const html = await (await get(path, { userAgent: UA.desktop })).text();
    expect(new TextEncoder().encode(html).byteLength).toBeLessThanOrEqual(40_000);
    expect(decodeQrImage(qrSrc(html))).toBe(`https://lander.test${path}`);
  });

  it('gives phones no QR code', async () => {
    await seed(testConfig());
    const html = await (await get('/', { userAgent: UA.androidChrome })).text();
    expect(html).not.toContain('class="qr-code"');
    expect(handoffOf(html).handoff.download.qr).toBeNull();
  });

  it('marks the button for the guide inside Android WeChat without a YYB link', async () => {
    await seed(testConfig());
    const html = await (
      await get('/', { userAgent: UA.weChatAndroid, headers: { 'accept-language': 'zh-CN' } })
    ).text();
    expect(primary(html)?.kind).toBe('apk');
    expect(handoffOf(html).handoff.download.guide).toEqual({
      title: '请在浏览器中打开本页以下载',
      steps: ['点击右上角的 ···', '选择「在浏览器中打开」'],
      close: '我知道了',
    });
  });

  it('sends Android WeChat to the YYB link when one is set', async () => {
    const yyb = 'https://a.app.qq.com/o/simple.jsp?pkgname=com.tern&android_schema=tern%3A%2F%2F';
    await seed(testConfig((c) => Object.assign(c.appData[0] ?? {}, { yyb_url: yyb })));
    const html = await (await get('/', { userAgent: UA.weChatAndroid })).text();
    expect(primary(html)).toEqual({ href: yyb.replaceAll('&', '&amp;'), kind: 'yyb' });
    expect(handoffOf(html).handoff.download.guide).toBeNull();
  });

  it('tells an iOS in-app browser that holds back App Store links (Douyin) to open Safari', async () => {
    await seed(testConfig());
    const html = await (await get('/', { userAgent: UA.douyinIos, headers: { 'accept-language': 'en' } })).text();
    expect(primary(html)?.kind).toBe('app-store');
    expect(handoffOf(html).handoff.download.guide.steps[1]).toBe('Choose “Open in Safari”');
  });

  it('lets iOS WeChat, whose webview opens App Store links, go straight to the App Store', async () => {
    await seed(testConfig());
    const html = await (await get('/', { userAgent: UA.weChatIos })).text();
    expect(primary(html)).toEqual({ href: 'https://apps.apple.com/app/id6740858208', kind: 'app-store' });
    expect(handoffOf(html).handoff.download.guide).toBeNull();
  });
});

describe('the page from the config', () => {
  it('shows name, tagline, version, size, date, features and screenshots', async () => {
    await seed(testConfig());
    const html = await (await get('/', { userAgent: UA.androidChrome })).text();
    for (const text of ['Tern Maps', 'Maps for the way back', '9.8.7', '12.3 MB', 'Mar 4, 2026', 'Offline tiles']) {
      expect(html).toContain(text);
    }
    expect(html).toContain('<img src="/shots/1.png" alt="Map view"');
    expect(html).toContain('src="https://cdn.test/tern.png"');
  });

  it('speaks Chinese to a zh-CN visitor, with <html lang="zh-CN">', async () => {
    await seed(testConfig());
    const html = await (
      await get('/', { userAgent: UA.androidChrome, headers: { 'accept-language': 'zh-CN,zh;q=0.9' } })
    ).text();
    expect(html).toContain('<html lang="zh-CN"');
    for (const text of ['燕鸥地图', '回家的地图', '2026年3月4日', '下载安卓版', '离线瓦片'])
      expect(html).toContain(text);
  });

  it('speaks English to an en visitor, with <html lang="en">', async () => {
    await seed(testConfig());
    const html = await (
      await get('/', { userAgent: UA.androidChrome, headers: { 'accept-language': 'en-GB' } })
    ).text();
    expect(html).toContain('<html lang="en"');
    expect(html).toContain('Download for Android');
  });

  it('puts title, description, canonical, Open Graph and Twitter tags from the config in the head', async () => {
    await seed(testConfig());
    const html = await (await get('/?utm=1', { userAgent: UA.androidChrome })).text();
    expect(html).toContain('<title>Tern Maps – Maps for the way back</title>');
    expect(html).toContain('<meta name="description" content="Tern Maps: offline maps."/>');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/"/>`);
    expect(html).toContain('<meta property="og:image" content="https://cdn.test/og.png"/>');
    expect(html).toContain('<meta property="og:site_name" content="Tern Maps"/>');
    expect(html).toContain('<meta name="twitter:title" content="Tern Maps – Maps for the way back"/>');
  });

  it('gives iOS Safari the Smart App Banner', async () => {
    await seed(testConfig());
    const html = await (await get('/', { userAgent: UA.iPhoneSafari })).text();
    expect(html).toContain('<meta name="apple-itunes-app" content="app-id=6740858208"/>');
  });

  it('gives no Smart App Banner inside an in-app browser or on Android', async () => {
    await seed(testConfig());
    for (const userAgent of [UA.weChatIos, UA.androidChrome, UA.desktop]) {
      expect(await (await get('/', { userAgent })).text()).not.toContain('apple-itunes-app');
    }
  });

  it("gives a bot's metadata page the config's words", async () => {
    await seed(testConfig());
    const res = await get('/no/such/page', { userAgent: UA.googlebot });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Tern Maps – Maps for the way back</title>');
    expect(html).toContain('<meta property="og:description" content="Tern Maps: offline maps.">');
    expect(html).toContain('<meta property="og:image" content="https://cdn.test/og.png">');
  });

  it('hands the browser only what it reads of the configuration: domains, probe path, apps’ versions', async () => {
    await seed(
      testConfig((c) => {
        c.links = { apple_app_ids: ['ABCDE12345.com.tern'] };
      }),
    );
    const { handoff: store } = handoffOf(await (await get('/')).text());
    expect(store.appData).toEqual([
      { plat: 1, version: expect.any(String) },
      { plat: 2, version: expect.any(String) },
    ]);
    expect(store.domains).toEqual(['https://dl-a.test', 'https://dl-b.test']);
    expect(store.commonConfig).toEqual({ probe_path: '/favicon.ico' });
    expect(store.config).toEqual({ revision: 'test-rev-42', fallback: null });
    expect(JSON.stringify(store)).not.toContain('ABCDE12345');
  });

  it('escapes config text in the HTML and in the hand-off', async () => {
    await seed(testConfig((c) => (c.commonConfig.tagline = '</script><script>alert(1)\u2028</script>')));
    const html = await (await get('/', { userAgent: UA.androidChrome })).text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
    expect(handoffOf(html).handoff.download.tagline).toBe('</script><script>alert(1)\u2028</script>');
  });

  it('shows the config in use on /test', async () => {
    await seed(testConfig());
    const html = await (await get('/test')).text();
    expect(html).toContain('<td data-row="config">test-rev-42</td>');
    expect(html).toContain('https://dl-a.test, https://dl-b.test');
    expect(html).toContain(`<td data-row="downloadReachable">${env.DOWNLOAD_ORIGIN} (probing…)</td>`);
  });

  it('sends no x-config header when the config is in use', async () => {
    await seed(testConfig());
    expect((await get('/')).headers.get('x-config')).toBeNull();
  });
});

describe('a missing, unreadable, invalid or slow config never breaks the page', () => {
  async function expectFallback(res: Response, reason: string): Promise<void> {
    expect(res.status).toBe(200);
    expect(res.headers.get('x-config')).toBe('fallback');
    const html = await res.text();
    expect(html).toContain('Pebble Notes');
    expect(handoffOf(html).handoff.config.fallback).toBe(reason);
  }

  it('serves the demo app when the key is missing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expectFallback(await get('/'), 'missing');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Config fallback (missing)'));
  });

  it('serves the demo app when the document is not JSON', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await seed('{"revision": "half');
    await expectFallback(await get('/'), 'not-json');
  });

  it('serves the demo app when the document fails the schema', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await seed(testConfig((c) => Object.assign(c.appData[0] ?? {}, { plat: 7 })));
    await expectFallback(await get('/'), 'invalid');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('$.appData[0].plat'));
  });

  it('serves the demo app when KV throws', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const KV = { get: () => Promise.reject(new Error('KV exploded')) } as unknown as KVNamespace;
    const res = await fetchWorker(`${ORIGIN}/`, { headers: { 'user-agent': UA.androidChrome } }, { ...env, KV });
    await expectFallback(res, 'kv-error');
  });

  it('serves the demo app within about half a second when KV is slow', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const KV = {
      get: () => new Promise((resolve) => setTimeout(() => resolve(JSON.stringify(testConfig())), 3000)),
    } as unknown as KVNamespace;
    const started = Date.now();
    const res = await fetchWorker(`${ORIGIN}/`, { headers: { 'user-agent': UA.androidChrome } }, { ...env, KV });
    await expectFallback(res, 'kv-timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("gives a bot the demo's metadata page when KV throws", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const KV = { get: () => Promise.reject(new Error('down')) } as unknown as KVNamespace;
    const res = await fetchWorker(`${ORIGIN}/missing`, { headers: { 'user-agent': UA.googlebot } }, { ...env, KV });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-config')).toBe('fallback');
    expect(await res.text()).toContain('Pebble Notes');
  });
});
