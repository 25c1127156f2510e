/**
 * The page's address (docs/routes.md): only `d`, `channel` and `inviter` reach the render. Tracking
 * parameters and unknown ones are left out of everything a page carries: canonical and Open Graph
 * URLs, the open-app links, App Store links, the desktop QR code and the hand-off's campaign.
 */
import { describe, expect, it } from 'vitest';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { decodeQrImage } from '../../fixtures/qr-image.ts';
import { get, handoffOf, ORIGIN } from '../helpers.ts';

const D = encryptToken(JSON.stringify({ inviter: 'Ann' }), DEV_DECODE_KEY);
const TRACKED = `?d=${D}&channel=a&utm_source=x&fbclid=y&campaign=42`;
/** The same link as the page is made from. */
const ADDRESS = `?d=${D}&channel=a`;
const LEFT_OUT = ['utm_source', 'fbclid', 'campaign=42'];

const unescapeAmp = (value: string): string => value.replaceAll('&amp;', '&');

function canonical(html: string): string | undefined {
  const href = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
  return href === undefined ? undefined : unescapeAmp(href);
}

function ogUrl(html: string): string | undefined {
  const url = /<meta property="og:url" content="([^"]*)"/.exec(html)?.[1];
  return url === undefined ? undefined : unescapeAmp(url);
}

/** Every link target of the server HTML: `href`, `data-fallback` and `data-url` values. */
function linkTargets(html: string): string[] {
  return [...html.matchAll(/ (?:href|data-fallback|data-url)="([^"]*)"/g)].map(([, value = '']) => unescapeAmp(value));
}

describe.each(['/', '/landing'])('%s with tracking parameters beside the campaign', (path) => {
  it('gives the canonical and Open Graph URLs the path alone', async () => {
    const html = await (await get(`${path}${TRACKED}`)).text();
    expect(canonical(html)).toBe(`${ORIGIN}${path}`);
    expect(ogUrl(html)).toBe(`${ORIGIN}${path}`);
  });

  it('keeps tracking parameters out of every link, and the campaign in the open-app link', async () => {
    const html = await (await get(`${path}${TRACKED}`, { userAgent: UA.iPhoneSafari })).text();
    const targets = linkTargets(html);
    for (const target of targets) for (const name of LEFT_OUT) expect(target).not.toContain(name);
    const { openApp } = handoffOf(html).handoff;
    expect(openApp.href).toBe(`https://open.pebble-notes.example/open/?channel=a&d=${D}`);
    expect(targets).toContain(openApp.href);
  });

  it('keeps tracking parameters out of the App Store link', async () => {
    const html = await (await get(`${path}${TRACKED}`, { userAgent: UA.iPhoneSafari })).text();
    const { primary } = handoffOf(html).handoff.download;
    expect(primary.kind).toBe('app-store');
    for (const name of LEFT_OUT) expect(primary.href).not.toContain(name);
    expect(linkTargets(html)).toContain(primary.href);
  });

  it('gives a desktop a QR code of the address', async () => {
    const html = await (await get(`${path}${TRACKED}`, { userAgent: UA.desktop })).text();
    expect(handoffOf(html).handoff.download.qr.url).toBe(`${ORIGIN}${path}${ADDRESS}`);
    const src = /<img class="qr-code" src="(data:image\/bmp;base64,[A-Za-z0-9+/=]+)"/.exec(html)?.[1] ?? '';
    expect(decodeQrImage(src)).toBe(`${ORIGIN}${path}${ADDRESS}`);
  });

  it('hands the browser channel as the only plain parameter, and the token', async () => {
    const html = await (await get(`${path}${TRACKED}`)).text();
    expect(handoffOf(html).handoff.campaign).toEqual({ signed: { inviter: 'Ann' }, plain: { channel: 'a' }, token: D });
  });

  it('carries no tracking parameter anywhere in the page', async () => {
    for (const userAgent of [UA.iPhoneSafari, UA.androidChrome, UA.desktop]) {
      const html = await (await get(`${path}${TRACKED}`, { userAgent })).text();
      for (const name of LEFT_OUT) expect(html, userAgent).not.toContain(name);
    }
  });
});

describe('the device a page hands to the browser', () => {
  it('is the verdict on the download page: no agent, referrer or locale', async () => {
    const html = await (
      await get('/', {
        userAgent: UA.androidChrome,
        headers: { referer: 'https://ref.test/', 'accept-language': 'de' },
      })
    ).text();
    expect(handoffOf(html).handoff.deviceInfo).toEqual({
      operatingSystem: 'Android',
      browser: 'Chrome',
      bot: false,
      webView: false,
      installsApk: false,
      inApp: null,
    });
  });

  it('is the whole detection on /test, whose table shows it', async () => {
    const html = await (
      await get('/test', { userAgent: UA.androidChrome, headers: { referer: 'https://ref.test/' } })
    ).text();
    expect(handoffOf(html).handoff.deviceInfo).toMatchObject({
      userAgent: UA.androidChrome,
      referrer: 'https://ref.test/',
      browser: 'Chrome',
      device_model: 'Pixel 8',
    });
  });

  it('is the whole detection on every spelling the router takes for /test', async () => {
    for (const path of ['/test/', '/TEST', '/Test', '/t%65st', '/%74EST/']) {
      const html = await (await get(path, { userAgent: UA.androidChrome })).text();
      expect(html, path).toContain('class="screen diagnostics"');
      expect(handoffOf(html).handoff.deviceInfo.userAgent, path).toBe(UA.androidChrome);
    }
  });
});

describe('a bare question mark', () => {
  it('is the page without a query: its QR code and its kept page are the plain address', async () => {
    const idOf = (res: Response) => /page;desc=([0-9a-z]+)/.exec(res.headers.get('server-timing') ?? '')?.[1];
    const plain = await get('/', { userAgent: UA.desktop });
    await plain.text();
    const bare = await get('/?', { userAgent: UA.desktop });
    expect(handoffOf(await bare.text()).handoff.download.qr.url).toBe(`${ORIGIN}/`);
    expect(idOf(bare)).toBe(idOf(plain));
  });
});
