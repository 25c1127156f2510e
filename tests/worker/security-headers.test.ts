import { describe, expect, it } from 'vitest';
import { get } from './helpers.ts';

describe('security headers', () => {
  it('sends Referrer-Policy no-referrer and nosniff on pages', async () => {
    const res = await get('/');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends them on error pages and API answers too', async () => {
    for (const path of ['/missing', '/api/health']) {
      const res = await get(path);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  it('allows scripts only from this origin or with a nonce, never unsafe-inline', async () => {
    const csp = (await get('/')).headers.get('content-security-policy') ?? '';
    const scriptSrc =
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith('script-src')) ?? '';
    expect(scriptSrc).toMatch(/^script-src 'nonce-[A-Za-z0-9+/=]+' 'self'$/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  it('mints a fresh nonce for every response', async () => {
    const nonce = async () =>
      /'nonce-([^']+)'/.exec((await get('/')).headers.get('content-security-policy') ?? '')?.[1];
    const [a, b] = [await nonce(), await nonce()];
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });

  it('forbids framing with X-Frame-Options too', async () => {
    expect((await get('/')).headers.get('x-frame-options')).toBe('DENY');
  });
});
