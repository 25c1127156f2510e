/**
 * Styled QR codes through the worker (docs/operators.md#qr-code-styles): a style's code decodes, the
 * app's logo is read from the site's assets or an https URL, a logo that cannot be had gives the code
 * without it and says so, refusals name the field, a styled code revalidates by its ETag, and the
 * plain code is the one served before styles.
 */
import { env } from 'cloudflare:workers';
import { convertIndexedToRgb, decode } from 'fast-png';
import jsQR from 'jsqr';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOGO_MAX_BYTES } from '../../../worker/campaign/qr-logo.ts';
import { qrPng, qrSvg } from '../../../worker/lib/qr-code.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { DEMO, demoWith } from '../../fixtures/config.ts';
import { clearConfig, fetchWorker, ORIGIN, storeConfig } from '../helpers.ts';

const slug = `qr-${crypto.randomUUID().slice(0, 8)}`;
const SHORT = `${ORIGIN}/s/${slug}`;

/** What a camera reads from a PNG answer (never told to invert). */
async function decodePngAnswer(res: Response): Promise<string | undefined> {
  const png = decode(new Uint8Array(await res.arrayBuffer()));
  const data = png.palette ? convertIndexedToRgb(png) : png.data;
  const channels = png.palette ? 3 : png.channels;
  const rgba = new Uint8ClampedArray(png.width * png.height * 4);
  for (let i = 0; i < png.width * png.height; i += 1) {
    for (let c = 0; c < 3; c += 1) rgba[i * 4 + c] = Number(data[i * channels + c]);
    rgba[i * 4 + 3] = 255;
  }
  return jsQR(rgba, png.width, png.height, { inversionAttempts: 'dontInvert' })?.data;
}

/** The configuration with the first app's logo at `logo`. */
function withLogo(logo: string) {
  return demoWith({ appData: DEMO.appData.map((app) => ({ ...app, logo_url: logo })) });
}

const qr = (query: string, headers: Record<string, string> = {}) =>
  fetchWorker(`${ORIGIN}/s/${slug}${query}`, { headers });

beforeAll(async () => {
  const res = await fetchWorker(`${ORIGIN}/api/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'qr-style', slug }),
  });
  expect(res.status).toBe(201);
});

afterEach(async () => {
  vi.restoreAllMocks();
  await clearConfig();
});

describe('GET /s/<slug>.png and .svg with a style', () => {
  it('answers a coloured PNG that decodes to the short link', async () => {
    const res = await qr('.png?fg=1d3557&bg=f1faee&margin=6&scale=4');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="qr-${slug}.png"`);
    expect(await decodePngAnswer(res)).toBe(SHORT);
  });

  it('draws the app’s logo, read through the site’s assets, and the code still decodes', async () => {
    const res = await qr('.png?logo=1&scale=6');
    expect(res.headers.get('x-qr-logo')).toBeNull();
    const png = decode(new Uint8Array(await res.clone().arrayBuffer()));
    // A logo makes an RGB image; a code without one is two colours.
    expect(png.palette).toBeUndefined();
    expect(await decodePngAnswer(res)).toBe(SHORT);
  });

  it('embeds the logo in the SVG as a data: URL', async () => {
    const svg = await (await qr('.svg?logo=1&fg=003300')).text();
    expect(svg).toContain('xlink:href="data:image/png;base64,iVBORw0KGgo');
    expect(svg).toContain('fill="#003300"');
  });

  it('fetches a remote https logo', async () => {
    await storeConfig(withLogo('https://cdn.test/brand.png'));
    const logo = await (await env.ASSETS.fetch(`${ORIGIN}/logo.png`)).arrayBuffer();
    const fetched = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(logo));
    const res = await qr('.png?logo=1&scale=4');
    expect(fetched).toHaveBeenCalledWith('https://cdn.test/brand.png', expect.anything());
    expect(res.headers.get('x-qr-logo')).toBeNull();
    expect(await decodePngAnswer(res)).toBe(SHORT);
  });

  it('fetches a remote logo once for any number of styles, and not again while it is kept', async () => {
    const url = `https://cdn.test/${crypto.randomUUID()}.png`;
    await storeConfig(withLogo(url));
    const logo = await (await env.ASSETS.fetch(`${ORIGIN}/logo.png`)).arrayBuffer();
    const fetched = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(logo));
    for (const style of ['.png?logo=1&scale=4', '.png?logo=1&fg=112233', '.svg?logo=1&bg=fafafa']) {
      const res = await qr(style);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-qr-logo')).toBeNull();
    }
    expect(fetched.mock.calls.filter(([input]) => String(input) === url)).toHaveLength(1);
  });

  it('gives the code without the logo, and says why, when the remote logo is too slow', async () => {
    await storeConfig(withLogo('https://cdn.test/slow.png'));
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (_input, init) =>
        new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    );
    const res = await qr('.png?logo=1&scale=4');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-qr-logo')).toMatch(
      /^missing: the logo https:\/\/cdn.test\/slow.png did not answer within/,
    );
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(await decodePngAnswer(res)).toBe(SHORT);
  });

  it('gives the code without the logo when the logo is too large, missing or not an image', async () => {
    await storeConfig(withLogo('https://cdn.test/huge.png'));
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      if (url.endsWith('huge.png')) return new Response(new Uint8Array(LOGO_MAX_BYTES + 1));
      if (url.endsWith('gone.png')) return new Response('not found', { status: 404 });
      return new Response('<html>a page</html>');
    });
    const huge = await qr('.svg?logo=1');
    expect(huge.headers.get('x-qr-logo')).toBe('missing: the logo https://cdn.test/huge.png is over 256 kB');
    expect(await huge.text()).not.toContain('<image');
    await storeConfig(withLogo('https://cdn.test/gone.png'));
    expect((await qr('.svg?logo=1')).headers.get('x-qr-logo')).toBe(
      'missing: the logo https://cdn.test/gone.png answered 404',
    );
    await storeConfig(withLogo('https://cdn.test/page.png'));
    const page = await qr('.png?logo=1');
    expect(page.status).toBe(200);
    expect(page.headers.get('x-qr-logo')).toMatch(/is not a PNG, JPEG, GIF, WebP or SVG image$/);
  });

  it('keeps a styled code a day and answers 304 to its ETag', async () => {
    const res = await qr('.svg?fg=222222&logo=1');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"qr-[0-9a-f]{24}"$/);
    expect((await qr('.svg?fg=222222&logo=1', { 'if-none-match': etag })).status).toBe(304);
    // Another style, another file.
    expect((await qr('.svg?fg=222223&logo=1')).headers.get('etag')).not.toBe(etag);
  });

  it('refuses a bad style with 400 naming the field and the reason', async () => {
    for (const [query, error] of [
      ['.svg?fg=purple', 'fg: must be a colour #rrggbb'],
      ['.png?margin=20', 'margin: must be a whole number from 2 to 16'],
      ['.png?fg=bbbbbb', 'fg: contrast with bg is 1.92:1, a scanner needs at least 4.5:1'],
      [
        '.png?fg=02110a&bg=ed12ab',
        'fg: a scanner sees fg and bg only 62 grey levels apart of 255, it needs at least 100',
      ],
      [
        '.svg?fg=ffffff&bg=000000',
        'fg: must be darker than bg (most scanners read only dark modules on a light ground)',
      ],
    ] as const) {
      const res = await qr(query);
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toEqual({ error });
    }
  });

  it('answers 404 for an unknown link whatever the style', async () => {
    expect((await fetchWorker(`${ORIGIN}/s/no-such-link.png?fg=112233`)).status).toBe(404);
  });
});

describe('the plain code', () => {
  it('is byte for byte the code served before styles, with or without a plain style’s query', async () => {
    const svg = await qr('.svg');
    expect(await svg.text()).toBe(qrSvg(SHORT));
    expect(svg.headers.get('cache-control')).toBe('public, max-age=300');
    const png = new Uint8Array(await (await qr('.png')).arrayBuffer());
    expect(png).toEqual(qrPng(SHORT));
    // A query that asks for nothing but the plain style is the plain code too.
    expect(await (await qr('.svg?fg=000000&margin=4&utm_source=x')).text()).toBe(qrSvg(SHORT));
  });
});
