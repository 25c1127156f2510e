import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { qrSvg } from '../../worker/lib/qr-code.ts';

/** What a camera reads from the SVG: its path's rectangles drawn as pixels, `scale` per module. */
function decodeSvg(svg: string, scale = 4): string | undefined {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const path = /<path d="([^"]*)"/.exec(svg)?.[1] ?? '';
  const width = size * scale;
  const data = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const [, x, y, run] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let dy = 0; dy < scale; dy += 1) {
      for (let dx = 0; dx < Number(run) * scale; dx += 1) {
        const at = ((Number(y) * scale + dy) * width + Number(x) * scale + dx) * 4;
        data.set([0, 0, 0, 255], at);
      }
    }
  }
  return jsQR(data, width, width)?.data;
}

describe('a short link’s QR code', () => {
  it('decodes to the short link', () => {
    expect(decodeSvg(qrSvg('https://lander.test/s/spring-sale') ?? '')).toBe('https://lander.test/s/spring-sale');
  });

  it('is one path inside a white square with the quiet zone', () => {
    const svg = qrSvg('https://lander.test/s/abc') ?? '';
    expect(svg.match(/<path /g)).toHaveLength(1);
    expect(svg).toContain('<rect width="33" height="33" fill="#fff"/>');
  });
});
