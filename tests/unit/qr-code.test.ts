import { describe, expect, it } from 'vitest';
import { qrImage } from '../../worker/lib/qr-code.ts';
import { decodeQrImage as decode } from '../fixtures/qr-image.ts';

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
