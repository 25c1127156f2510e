/**
 * Styled QR codes (docs/operators.md#qr-code-styles) read by an independent decoder (jsQR, never told
 * to invert): every style the rules accept, with and without the logo, at the densest short link; the
 * rules' refusals; and the plain code, byte for byte today's.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import fc from 'fast-check';
import { convertIndexedToRgb, decode } from 'fast-png';
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import {
  colourProblem,
  contrastRatio,
  MIN_QR_CONTRAST,
  PLAIN_QR_STYLE,
  parseQrStyle,
  type QrStyle,
  qrStyleQuery,
} from '../../shared/qr-style.ts';
import { imageTypeOf } from '../../worker/campaign/qr-logo.ts';
import { qrModules, qrPng, qrSvg } from '../../worker/lib/qr-code.ts';
import { LOGO_AREA, logoPixels, logoSquare, styledQrPng, styledQrSvg } from '../../worker/lib/qr-styled.ts';
import { qrPaths } from '../../worker/openapi/qr-paths.ts';

const LOGO = new Uint8Array(readFileSync('public/logo.png'));
const LOGO_PIXELS = logoPixels(LOGO);
if ('problem' in LOGO_PIXELS) throw new Error(LOGO_PIXELS.problem);
/** The longest short link: a long origin and the longest slug (shared/admin-contract.ts, 48 characters). */
const DENSEST = `https://links.example-company.com/@campaigns/s/${'x'.repeat(48)}`;
const SHORT = 'https://lander.test/s/spring-sale';

/** A PNG file's pixels as 8-bit RGB, whether it is indexed or not. */
function rgbOf(bytes: Uint8Array) {
  const png = decode(bytes);
  const data = png.palette ? convertIndexedToRgb(png) : png.data;
  const channels = png.palette ? 3 : png.channels;
  const rgb = (x: number, y: number) => [0, 1, 2].map((c) => Number(data[(y * png.width + x) * channels + c]));
  return { width: png.width, height: png.height, rgb };
}

/** What a camera reads from a PNG file. */
function decodePng(bytes: Uint8Array): string | undefined {
  const { width, height, rgb } = rgbOf(bytes);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) rgba.set([...rgb(x, y), 255], (y * width + x) * 4);
  }
  return jsQR(rgba, width, height, { inversionAttempts: 'dontInvert' })?.data;
}

/** What a camera reads from an SVG's modules: its background and path drawn, 4 pixels a module (the logo's square left as the background). */
function decodeSvgModules(svg: string): string | undefined {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const colour = (hex: string) => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  const bg = colour(/<rect width="\d+" height="\d+" fill="(#[0-9a-f]{6})"/.exec(svg)?.[1] ?? '');
  const [, path = '', fgHex = ''] = /<path d="([^"]*)" fill="(#[0-9a-f]{6})"/.exec(svg) ?? [];
  const fg = colour(fgHex);
  const scale = 4;
  const width = size * scale;
  const data = new Uint8ClampedArray(width * width * 4);
  for (let i = 0; i < width * width; i += 1) data.set([...bg, 255], i * 4);
  for (const [, x, y, run] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let dy = 0; dy < scale; dy += 1) {
      for (let dx = 0; dx < Number(run) * scale; dx += 1) {
        data.set([...fg, 255], ((Number(y) * scale + dy) * width + Number(x) * scale + dx) * 4);
      }
    }
  }
  return jsQR(data, width, width, { inversionAttempts: 'dontInvert' })?.data;
}

const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`);
/** Every style the rules accept (the console offers no other). */
const acceptedStyle = fc
  .record({
    fg: hex,
    bg: hex,
    margin: fc.integer({ min: 2, max: 16 }),
    logo: fc.boolean(),
    scale: fc.integer({ min: 2, max: 6 }),
  })
  .filter((style) => colourProblem(style.fg, style.bg) === null);

describe('a styled QR code', () => {
  it('decodes as a PNG in every accepted style, with and without the logo, at the densest link', () => {
    fc.assert(
      fc.property(acceptedStyle, fc.constantFrom(SHORT, DENSEST), (style, text) => {
        const png = styledQrPng(text, style, style.logo ? LOGO_PIXELS : null);
        expect(decodePng(png ?? new Uint8Array())).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('decodes as an SVG in every accepted style (its modules; Chromium reads the logo in tests/browser)', () => {
    fc.assert(
      fc.property(acceptedStyle, fc.constantFrom(SHORT, DENSEST), (style, text) => {
        const svg = styledQrSvg(text, style, style.logo ? { bytes: LOGO, type: 'image/png' } : null) ?? '';
        expect(decodeSvgModules(svg)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('raises error correction to H under a logo', () => {
    // H holds fewer bytes a version: the same text needs a larger code.
    expect(qrModules(DENSEST, true)?.length).toBeGreaterThan(qrModules(DENSEST)?.length ?? 0);
  });

  it('keeps the logo’s square within 15 % of the modules, centred, clear of the finder patterns', () => {
    for (let version = 1; version <= 40; version += 1) {
      const size = 17 + 4 * version;
      const square = logoSquare(size);
      if (!square) continue;
      expect(square.side ** 2).toBeLessThanOrEqual(LOGO_AREA * size ** 2);
      expect(square.at * 2 + square.side).toBe(size);
      expect(square.at).toBeGreaterThanOrEqual(9);
    }
  });

  it('draws the quiet zone it is given, in the background colour', () => {
    const style: QrStyle = { ...PLAIN_QR_STYLE, margin: 9, fg: '#123456', bg: '#fafad2', scale: 2 };
    const png = rgbOf(styledQrPng(SHORT, style, null) ?? new Uint8Array());
    const modules = qrModules(SHORT)?.length ?? 0;
    expect(png.width).toBe((modules + 18) * 2);
    // The top-left corner of the first finder pattern is 9 modules in.
    expect(png.rgb(17, 17)).toEqual([0xfa, 0xfa, 0xd2]);
    expect(png.rgb(18, 18)).toEqual([0x12, 0x34, 0x56]);
  });

  it('embeds the logo in the SVG as a data: URL, so a saved file shows it offline', () => {
    const svg = styledQrSvg(SHORT, { ...PLAIN_QR_STYLE, logo: true }, { bytes: LOGO, type: 'image/png' }) ?? '';
    expect(svg).toContain(`xlink:href="data:image/png;base64,${Buffer.from(LOGO).toString('base64')}"`);
  });
});

describe('the style rules', () => {
  const parse = (query: Record<string, string>) => parseQrStyle((name) => query[name]);

  it('refuses a bad colour, naming the field', () => {
    expect(parse({ fg: 'red' })).toEqual({ ok: false, error: 'fg: must be a colour #rrggbb' });
    expect(parse({ bg: '#12345' })).toEqual({ ok: false, error: 'bg: must be a colour #rrggbb' });
  });

  it('refuses a margin or a scale out of range', () => {
    expect(parse({ margin: '1' })).toEqual({ ok: false, error: 'margin: must be a whole number from 2 to 16' });
    expect(parse({ margin: '17' })).toMatchObject({ ok: false, error: expect.stringMatching(/^margin: /) });
    expect(parse({ margin: '4.5' })).toMatchObject({ ok: false, error: expect.stringMatching(/^margin: /) });
    expect(parse({ scale: '100' })).toEqual({ ok: false, error: 'scale: must be a whole number from 2 to 24' });
    expect(parse({ logo: 'yes' })).toEqual({ ok: false, error: 'logo: must be 0 or 1' });
  });

  it('refuses a pair a scanner cannot read: too little contrast, or light on dark', () => {
    expect(parse({ fg: 'aaaaaa', bg: 'ffffff' })).toEqual({
      ok: false,
      error: 'fg: contrast with bg is 2.32:1, a scanner needs at least 4.5:1',
    });
    // 4.85:1 by WCAG, yet hot pink looks dark to a scanner's grey levels.
    expect(parse({ fg: '02110a', bg: 'ed12ab' })).toEqual({
      ok: false,
      error: 'fg: a scanner sees fg and bg only 62 grey levels apart of 255, it needs at least 100',
    });
    expect(parse({ fg: 'ffffff', bg: '000000' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^fg: must be darker than bg/),
    });
  });

  it('measures contrast as WCAG 2 does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(MIN_QR_CONTRAST).toBe(4.5);
  });

  it('accepts colours with or without #, in any case, and writes one canonical query', () => {
    const parsed = parse({ fg: '%231A2B3C'.replace('%23', '#'), bg: 'FFFFFF', logo: '1', margin: '4' });
    expect(parsed).toEqual({ ok: true, style: { ...PLAIN_QR_STYLE, fg: '#1a2b3c', logo: true } });
    if (parsed.ok) expect(qrStyleQuery(parsed.style, 'svg')).toBe('?fg=1a2b3c&logo=1');
    expect(qrStyleQuery(PLAIN_QR_STYLE, 'png')).toBe('');
  });
});

describe('the plain code', () => {
  const sha = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

  it('is byte for byte the code served before styles', () => {
    // Digests of the SVG and PNG the worker served before styles existed.
    expect(sha(qrSvg(SHORT) ?? '')).toBe('dc72375d852e4b4bb3f893d770850b54270e65db5c3ed86c91fc469ae4d5d74c');
    expect(sha(qrPng(SHORT) ?? new Uint8Array())).toBe(
      'dc3b19ac1ea85116b515a8df546091d5ca6fc5b8d8bce859206bdd26df9704c8',
    );
    const long = `http://localhost:8787/s/${'a'.repeat(48)}`;
    expect(sha(qrSvg(long) ?? '')).toBe('d44b59017d5d49c6bc266f6f12104bfc39dd5159f5a12f3dfb34008de7281ddb');
    expect(sha(qrPng(long) ?? new Uint8Array())).toBe(
      '53b5aa922ee39c31ec45fe794cf93dda74c1319f4d47078c3addd95ea6a238b1',
    );
  });
});

describe('a logo’s type', () => {
  it('is read from its first bytes', () => {
    expect(imageTypeOf(LOGO)).toBe('image/png');
    expect(imageTypeOf(new TextEncoder().encode('<?xml version="1.0"?>\n<svg xmlns="x"/>'))).toBe('image/svg+xml');
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageTypeOf(new TextEncoder().encode('<html>'))).toBeNull();
  });
});

describe('the QR code’s paths in the OpenAPI document', () => {
  it('are valid OpenAPI 3.1, with the rules’ own bounds', async () => {
    const paths = qrPaths() as Record<string, { get: { parameters: { name: string; schema: unknown }[] } }>;
    const doc = { openapi: '3.1.0', info: { title: 'QR', version: '1' }, paths };
    expect((await new Validator().validate(structuredClone(doc))).errors ?? []).toEqual([]);
    const png = paths['/s/{slug}.png']?.get.parameters ?? [];
    expect(png.find((p) => p.name === 'margin')?.schema).toEqual({
      type: 'integer',
      minimum: 2,
      maximum: 16,
      default: 4,
    });
    expect(png.map((p) => p.name)).toEqual(['slug', 'fg', 'bg', 'margin', 'logo', 'scale']);
  });
});
