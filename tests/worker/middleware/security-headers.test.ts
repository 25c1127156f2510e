import { describe, expect, it, vi } from 'vitest';
import { get } from '../helpers.ts';

/** The `script-src` directive of a CSP. */
function scriptSrc(csp: string): string {
  return (
    csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('script-src')) ?? ''
  );
}

/** Waits until `path` is answered from the page cache (it is kept after its first response ends). */
async function waitForKept(path: string): Promise<void> {
  await vi.waitFor(async () => {
    const res = await get(path);
    await res.text();
    expect(res.headers.get('server-timing')).toMatch(/^kept;desc=hit/);
  });
}

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

  it('allows scripts only from this origin or with the nonce of a page never kept, never unsafe-inline', async () => {
    const csp = (await get(`/no-such-page-${crypto.randomUUID()}`)).headers.get('content-security-policy') ?? '';
    expect(scriptSrc(csp)).toMatch(/^script-src 'nonce-[A-Za-z0-9+/=]+' 'self'$/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  it('mints a fresh nonce for every page never kept', async () => {
    const nonce = async () =>
      /'nonce-([^']+)'/.exec((await get('/no-such-page')).headers.get('content-security-policy') ?? '')?.[1];
    const [a, b] = [await nonce(), await nonce()];
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });

  it('answers a page that can be kept with scripts from this origin only, rendered or kept: no nonce', async () => {
    const path = `/?channel=${crypto.randomUUID()}`;
    const rendered = await get(path);
    expect(rendered.headers.get('server-timing')).toMatch(/^kept;desc=miss/);
    expect(scriptSrc(rendered.headers.get('content-security-policy') ?? '')).toBe("script-src 'self'");
    expect(await rendered.text()).not.toContain('nonce');
    await waitForKept(path);
    const kept = await get(path);
    expect(kept.headers.get('server-timing')).toMatch(/^kept;desc=hit/);
    expect(scriptSrc(kept.headers.get('content-security-policy') ?? '')).toBe("script-src 'self'");
    expect(await kept.text()).not.toContain('nonce');
  });

  it('gives API answers scripts from this origin only', async () => {
    const csp = (await get('/api/health')).headers.get('content-security-policy') ?? '';
    expect(scriptSrc(csp)).toBe("script-src 'self'");
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
