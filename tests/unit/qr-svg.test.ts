import { describe, expect, it } from 'vitest';
import { qrSvg } from '../../worker/render/qr-svg.ts';

describe('the QR code SVG', () => {
  it('is an SVG of shapes only, without the encoded text', () => {
    const svg = qrSvg('https://lander.test/?q=%3Cscript%3E');
    expect(svg).toMatch(/^<svg [^>]*viewBox="-4 -4 \d+ \d+"/);
    expect(svg).not.toContain('lander.test');
    expect(svg).not.toMatch(/<(script|text|foreignObject)/);
  });

  it('gives the same markup for the same URL', () => {
    expect(qrSvg('https://lander.test/a')).toBe(qrSvg('https://lander.test/a'));
    expect(qrSvg('https://lander.test/a')).not.toBe(qrSvg('https://lander.test/b'));
  });

  it('gives no code for a URL too long to scan', () => {
    expect(qrSvg(`https://lander.test/?${'x'.repeat(2000)}`)).toBeNull();
  });
});
