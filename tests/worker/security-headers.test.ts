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

  it("denies by default: every kind of resource the page does not name is blocked (default-src 'none')", async () => {
    const csp = (await get('/')).headers.get('content-security-policy') ?? '';
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name = '', ...sources]) => [name, sources.join(' ')]),
    );
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('style-src')).toBe("'self'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'self'");
    // No source list anywhere allows plain http: or inline code.
    expect(csp).not.toMatch(/http:|unsafe-eval|unsafe-inline/);
  });

  it('asks browsers to keep to HTTPS for two years (HSTS), the Observatory wants at least six months', async () => {
    const hsts = (await get('/')).headers.get('strict-transport-security') ?? '';
    const maxAge = Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0);
    expect(maxAge).toBeGreaterThanOrEqual(15_768_000);
    expect(hsts).toContain('includeSubDomains');
  });

  it('forbids framing with X-Frame-Options too', async () => {
    expect((await get('/')).headers.get('x-frame-options')).toBe('DENY');
  });
});
