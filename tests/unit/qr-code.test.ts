import { describe, expect, it } from 'vitest';
import { qrImage, qrModules, qrTerminal } from '../../worker/lib/qr-code.ts';
import { decodeQrImage as decode, decodeTerminalQr } from '../fixtures/qr-image.ts';

describe('the desktop QR code', () => {
  it('decodes to the text it was made for', () => {
    const url = 'https://lander.test/landing?d=abc&channel=spring';
    const image = qrImage(url);
    expect(image?.src).toMatch(/^data:image\/bmp;base64,/);
    expect(decode(image?.src ?? '')).toBe(url);
  });

  it('decodes for a 2 kB URL, and stays a few kilobytes', () => {
    const url = `https://lander.test/landing?d=${'Ab0_-'.repeat(396)}&channel=spring`;
    expect(url.length).toBeGreaterThan(2000);
    const image = qrImage(url);
    expect(decode(image?.src ?? '')).toBe(url);
    expect(image?.src.length).toBeLessThan(6_000);
  });

  it('carries no trace of the encoded text', () => {
    expect(qrImage('https://lander.test/?q=%3Cscript%3E')?.src).not.toMatch(/lander|script/);
  });

  it('gives no code for a text longer than any QR code holds', () => {
    expect(qrImage(`https://lander.test/?${'x'.repeat(3000)}`)).toBeNull();
  });
});

describe('the QR code in a terminal', () => {
  it('decodes to the text it was made for, two rows of modules a line inside a quiet zone of 2', () => {
    const url = 'https://lander.test/s/spring-2026';
    const text = qrTerminal(url) ?? '';
    expect(decodeTerminalQr(text)).toBe(url);
    const size = (qrModules(url)?.length ?? 0) + 4;
    const lines = text.split('\n');
    expect(lines).toHaveLength(Math.ceil(size / 2));
    expect(lines.every((line) => [...line].length === size)).toBe(true);
    // The quiet zone is light, so lit: the first line is a full row of blocks.
    expect(lines[0]).toBe('█'.repeat(size));
  });

  it('gives no code for a text longer than any QR code holds', () => {
    expect(qrTerminal(`https://lander.test/?${'x'.repeat(3000)}`)).toBeNull();
  });
});

/** The error correction level and mask a code's format bits name (ISO/IEC 18004, beside the top-left finder). */
function formatOf(modules: boolean[][]): { level: string; mask: number } {
  const places = [
    ...[0, 1, 2, 3, 4, 5].map((y) => [8, y]),
    [8, 7],
    [8, 8],
    [7, 8],
    ...[9, 10, 11, 12, 13, 14].map((i) => [14 - i, 8]),
  ] as [number, number][];
  const bits = places.reduce((sum, [x, y], i) => sum | (Number(modules[y]?.[x]) << i), 0) ^ 0x5412;
  const data = bits >> 10;
  return { level: ['M', 'L', 'H', 'Q'][data >> 3] ?? '?', mask: data & 7 };
}

describe('the encoder', () => {
  it('keeps error correction M for a short text and L for a long one, never raising it, with mask 0', () => {
    // Version 2 (25 modules) holds 26 bytes at M and 20 at Q: 20 bytes would fit it at Q, yet stay at M.
    for (const text of ['x'.repeat(20), 'x'.repeat(26)]) {
      expect(qrModules(text)).toHaveLength(25);
      expect(formatOf(qrModules(text) ?? [])).toEqual({ level: 'M', mask: 0 });
    }
    expect(qrModules('x'.repeat(27))).toHaveLength(29);
    // Past 400 bytes, L: 401 bytes fit version 13 (69 modules) at L (424), not at M (331).
    expect(qrModules('x'.repeat(401))).toHaveLength(69);
    expect(formatOf(qrModules('x'.repeat(401)) ?? [])).toEqual({ level: 'L', mask: 0 });
  });
});
