/**
 * The links room's QR code style (docs/operators.md#qr-code-styles) in real Chromium against the
 * started worker: a style chosen in the console changes the preview and the downloads, and what is
 * downloaded decodes (jsQR, never told to invert); a pair with too little contrast is said so and not
 * applied; styled SVGs with the logo, as Chromium draws them, decode at the densest link. The
 * screenshots of the control in docs/screenshots/ are taken here.
 */
import { readFileSync } from 'node:fs';
import { convertIndexedToRgb, decode } from 'fast-png';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserForThisFile, hydrated, screenshotOf } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';
const ADMIN = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const browser = browserForThisFile();

/** The newest link is the room's first row, and so its preview. */
async function createLink(slug: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/links`, {
    method: 'POST',
    headers: ADMIN,
    body: JSON.stringify({ channel: 'qr-style', slug }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { shortUrl: string }).shortUrl;
}

/** What a camera reads from a PNG file's bytes. */
function decodePng(bytes: Uint8Array): string | undefined {
  const png = decode(bytes);
  const data = png.palette ? convertIndexedToRgb(png) : png.data;
  const channels = png.palette ? 3 : png.channels;
  const rgba = new Uint8ClampedArray(png.width * png.height * 4);
  for (let i = 0; i < png.width * png.height; i += 1) {
    for (let c = 0; c < 3; c += 1) rgba[i * 4 + c] = Number(data[i * channels + c]);
    rgba[i * 4 + 3] = 255;
  }
  return jsQR(rgba, png.width, png.height, { inversionAttempts: 'dontInvert' })?.data;
}

/** What a camera reads from an SVG as Chromium draws it, 480 px wide. */
async function decodeSvgInChromium(page: Page, svg: string): Promise<string | undefined> {
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setContent(`<body style="margin:0"><img id="qr" src="${src}" width="480" height="480"></body>`);
  await page.locator('#qr').evaluate((image: HTMLImageElement) => image.decode());
  return decodePng(await page.locator('#qr').screenshot());
}

async function signedIn(width: number, locale: string, slug: string): Promise<Page> {
  const phone = width < 720;
  const context = await browser.newContext({
    viewport: { width, height: phone ? 844 : 900 },
    deviceScaleFactor: phone ? 2 : 1,
    locale,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto(`${baseURL}/admin`);
  await hydrated(page);
  await page.locator('input[type="password"], input[name="token"]').first().fill(TOKEN);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator(`[data-slug="${slug}"]`).waitFor();
  return page;
}

describe('the links room’s QR code style', () => {
  it('changes the preview and the downloads, and the downloaded PNG and SVG decode', async () => {
    const slug = `style-${crypto.randomUUID().slice(0, 6)}`;
    const shortUrl = await createLink(slug);
    const page = await signedIn(1366, 'en-US', slug);
    const control = page.getByRole('group', { name: 'QR code style' });
    await control.getByLabel('Foreground').fill('#1d3557');
    await control.getByLabel('Background').fill('#f1faee');
    await control.getByLabel('Quiet zone (modules)').fill('6');
    await control.getByLabel('App logo in the centre').check();
    const row = page.locator(`[data-slug="${slug}"]`);
    const png = row.getByRole('link', { name: `Download the QR code as PNG /s/${slug}` });
    await expect.poll(() => png.getAttribute('href')).toBe(`${shortUrl}.png?fg=1d3557&bg=f1faee&margin=6&logo=1`);
    await expect
      .poll(() => page.locator('.qr-style-preview').getAttribute('src'))
      .toMatch(/\.svg\?fg=1d3557&bg=f1faee&margin=6&logo=1$/);
    const downloads: Record<string, string> = {};
    for (const format of ['PNG', 'SVG'] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('link', { name: `Download the QR code as ${format} /s/${slug}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`qr-${slug}.${format.toLowerCase()}`);
      downloads[format] = await download.path();
    }
    expect(decodePng(new Uint8Array(readFileSync(downloads.PNG ?? '')))).toBe(shortUrl);
    const svg = readFileSync(downloads.SVG ?? '', 'utf8');
    // The logo travels inside the file.
    expect(svg).toContain('data:image/png;base64,');
    const reader = await page.context().newPage();
    expect(await decodeSvgInChromium(reader, svg)).toBe(shortUrl);
    await page.context().close();
  });

  it('says a pair with too little contrast, and keeps the last style that scans', async () => {
    const slug = `style-${crypto.randomUUID().slice(0, 6)}`;
    const shortUrl = await createLink(slug);
    const page = await signedIn(1366, 'en-US', slug);
    const control = page.getByRole('group', { name: 'QR code style' });
    await control.getByLabel('Foreground').fill('#333333');
    const svg = page
      .locator(`[data-slug="${slug}"]`)
      .getByRole('link', { name: `Download the QR code as SVG /s/${slug}` });
    await expect.poll(() => svg.getAttribute('href')).toBe(`${shortUrl}.svg?fg=333333`);
    await control.getByLabel('Foreground').fill('#bbbbbb');
    await expect(control.getByRole('alert').textContent()).resolves.toMatch(
      /^Too little contrast for a scanner \(1\.9:1, at least 4\.5:1/,
    );
    await control.getByLabel('Background').fill('#000000');
    await expect
      .poll(() => control.getByRole('alert').textContent())
      .toBe('The foreground must be darker than the background. The codes keep the last style that scans.');
    expect(await svg.getAttribute('href')).toBe(`${shortUrl}.svg?fg=333333`);
    await page.context().close();
  });

  it('draws styled SVGs with the logo that decode as Chromium shows them, at the densest link', async () => {
    const slug = `d${crypto.randomUUID().replaceAll('-', '')}`.slice(0, 48).padEnd(48, 'x');
    const shortUrl = await createLink(slug);
    const page = await browser.newPage();
    for (const style of [
      'logo=1',
      'fg=1d3557&bg=f1faee&logo=1',
      'fg=7a1f00&bg=fff7e6&margin=2&logo=1',
      'fg=555555&margin=16&logo=1',
    ]) {
      const res = await fetch(`${shortUrl}.svg?${style}`);
      expect(res.headers.get('x-qr-logo'), style).toBeNull();
      expect(await decodeSvgInChromium(page, await res.text()), style).toBe(shortUrl);
    }
    await page.close();
  });

  it('is pictured at phone and desktop widths, in English and Chinese', async () => {
    const slug = `style-${crypto.randomUUID().slice(0, 6)}`;
    await createLink(slug);
    for (const [width, locale, name] of [
      [390, 'en-US', 'console-qr-style-390-en'],
      [1366, 'en-US', 'console-qr-style-1366-en'],
      [390, 'zh-CN', 'console-qr-style-390-zh-CN'],
    ] as const) {
      const page = await signedIn(width, locale, slug);
      const control = page.locator('.qr-style');
      await control.locator('input[type="color"]').first().fill('#1d3557');
      await control.locator('input[type="color"]').nth(1).fill('#f1faee');
      await control.locator('input[type="checkbox"]').check();
      await page.locator('.qr-style-preview').evaluate((image: HTMLImageElement) => image.decode());
      await control.scrollIntoViewIfNeeded();
      await screenshotOf(control, name);
      await page.context().close();
    }
  });
});
