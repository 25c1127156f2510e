/** `GET /api/device` and the visitor middleware inside workerd (docs/device.md). */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { DeviceInfo } from '../../../shared/device.ts';
import { mergeVary } from '../../../worker/lib/headers.ts';
import { UA } from '../../fixtures/agents.ts';
import { expectConforms } from '../conforms.ts';
import { get, handoffOf, ORIGIN } from '../helpers.ts';

const DETECTION_HEADERS = [
  'user-agent',
  'accept-language',
  'sec-ch-ua-mobile',
  'sec-ch-ua-platform',
  'sec-ch-ua-model',
  'sec-ch-ua-platform-version',
];

async function device(userAgent: string, headers: Record<string, string> = {}): Promise<DeviceInfo> {
  const res = await get('/api/device', { userAgent, headers });
  await expectConforms(res, '/api/device', 'get');
  expect(res.status).toBe(200);
  return res.json();
}

/** A request with exactly these headers (no User-Agent unless given). */
async function raw(headers: Record<string, string>): Promise<Response> {
  const res = await exports.default.fetch(new Request(`${ORIGIN}/api/device`, { headers }));
  await expectConforms(res, '/api/device', 'get');
  return res;
}

describe('GET /api/device', () => {
  it('answers JSON that no cache keeps', async () => {
    const res = await get('/api/device');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('detects an iPhone', async () => {
    expect(await device(UA.iPhoneSafari)).toMatchObject({
      operatingSystem: 'iOS',
      mobile: true,
      inApp: null,
      bot: false,
      width: 0,
      height: 0,
    });
  });

  it('detects an Android phone and a Windows desktop', async () => {
    expect(await device(UA.androidChrome)).toMatchObject({ operatingSystem: 'Android', mobile: true });
    expect(await device(UA.desktop)).toMatchObject({ operatingSystem: 'PC', os: 'Windows', mobile: false });
  });

  it('detects Android WeChat and its policy', async () => {
    expect((await device(UA.weChatAndroid)).inApp).toMatchObject({
      name: 'WeChat',
      category: 'messaging',
      blocksDownloads: true,
      blocksSchemes: true,
    });
  });

  it('detects a HarmonyOS PC as Harmony and not mobile', async () => {
    expect(await device(UA.harmonyPc)).toMatchObject({ operatingSystem: 'Harmony', mobile: false });
  });

  it('detects crawlers and the WhatsApp previewer as bots', async () => {
    expect((await device(UA.googlebot)).bot).toBe(true);
    expect((await device(UA.whatsapp)).bot).toBe(true);
  });

  it('refines a reduced Android agent with the client hints', async () => {
    const info = await device(UA.androidChromeReduced, {
      'sec-ch-ua-mobile': '?1',
      'sec-ch-ua-platform': '"Android"',
      'sec-ch-ua-model': '"Pixel 8"',
      'sec-ch-ua-platform-version': '"14.0.0"',
    });
    expect(info).toMatchObject({ device_model: 'Pixel 8', osVersion: '14', mobile: true });
  });

  it('reports Windows 11 from the platform-version hint', async () => {
    const info = await device(UA.desktop, {
      'sec-ch-ua-mobile': '?0',
      'sec-ch-ua-platform': '"Windows"',
      'sec-ch-ua-platform-version': '"15.0.0"',
    });
    expect(info).toMatchObject({ os: 'Windows', osVersion: '11', mobile: false });
  });

  it('takes the locale from Accept-Language and the referrer from Referer', async () => {
    const info = await device(UA.iPhoneSafari, {
      'accept-language': 'zh-CN,zh;q=0.9',
      referer: 'https://weibo.example/post/1',
    });
    expect(info).toMatchObject({ device_locale: 'zh-CN', language: 'zh', referrer: 'https://weibo.example/post/1' });
  });

  it('keeps hostile hints out: too long, not printable, not a version', async () => {
    const info = await device(UA.androidChromeReduced, {
      'sec-ch-ua-model': `"${'<script>'.repeat(500)}"`,
      'sec-ch-ua-platform-version': '"14; rm -rf"',
    });
    expect(info.device_model).toBe('K');
    expect(info.osVersion).toBe('10');
  });

  it('answers a 16 KB agent with 200 quickly, the agent cut to 512 characters', async () => {
    const started = Date.now();
    const res = await get('/api/device', { userAgent: `${UA.iPhoneSafari} ${'A'.repeat(16 * 1024)}` });
    expect(res.status).toBe(200);
    const info: DeviceInfo = await res.json();
    expect(info.userAgent).toHaveLength(512);
    expect(info.operatingSystem).toBe('iOS');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers an empty agent with 200 and a safe default', async () => {
    const res = await raw({ 'user-agent': '' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ userAgent: '', operatingSystem: 'PC', mobile: false, bot: false });
  });

  it('answers a request without any agent with 200', async () => {
    const res = await raw({});
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ userAgent: '', operatingSystem: 'PC', inApp: null });
  });

  it('has no other verbs or sub-paths', async () => {
    expect((await get('/api/device', { method: 'POST' })).status).toBe(404);
    expect((await get('/api/device/extra')).status).toBe(404);
  });
});

describe('client hints negotiation', () => {
  it('asks for the model and the platform version on pages', async () => {
    const res = await get('/');
    expect(res.headers.get('accept-ch')).toBe('Sec-CH-UA-Model, Sec-CH-UA-Platform-Version');
  });

  it('varies pages and /api/device on every header detection reads, once each', async () => {
    for (const path of ['/', '/api/device', '/nowhere']) {
      const vary = (await get(path)).headers.get('vary') ?? '';
      const names = vary.split(',').map((name) => name.trim().toLowerCase());
      expect(names).toEqual(expect.arrayContaining(DETECTION_HEADERS));
      expect(new Set(names).size).toBe(names.length);
    }
  });

  it('merges Vary values without duplicates and keeps *', () => {
    expect(mergeVary('User-Agent, Accept-Language', ['user-agent', 'Sec-CH-UA-Model'])).toBe(
      'User-Agent, Accept-Language, Sec-CH-UA-Model',
    );
    expect(mergeVary(null, ['A'])).toBe('A');
    expect(mergeVary('*', ['A'])).toBe('*');
  });
});

describe('the rendered page', () => {
  it('carries the detected OS and in-app name on the root element and in the store', async () => {
    const html = await (await get('/', { userAgent: UA.weChatAndroid })).text();
    expect(html).toMatch(/<html[^>]* data-os="Android" data-in-app="WeChat"/);
    expect(handoffOf(html).handoff.deviceInfo.inApp.name).toBe('WeChat');
  });

  it('never reflects an agent or hint unescaped into the page', async () => {
    const html = await (
      await get('/test', {
        userAgent: `${UA.iPhoneSafari} </script><script>alert(1)</script>`,
        headers: { 'sec-ch-ua-model': '"<img src=x onerror=alert(1)>"' },
      })
    ).text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('<img src=x');
  });
});
