import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseOrigins } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { fetchWorker, get, ORIGIN } from '../helpers.ts';

const ALLOWED = 'https://www.partner.example, https://m.partner.example/';

function call(origin: string, init: { method?: string; headers?: Record<string, string> } = {}, allowed = ALLOWED) {
  return fetchWorker(
    `${ORIGIN}/api/trace`,
    { method: init.method ?? 'GET', headers: { 'user-agent': UA.iPhoneSafari, origin, ...init.headers } },
    { ...env, TRACE_ALLOWED_ORIGINS: allowed },
  );
}

const preflight = { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' } };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CORS on /api/trace', () => {
  it('answers an allowed origin with its own origin and credentials', async () => {
    const res = await call('https://www.partner.example');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://www.partner.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toContain('Origin');
    expect(res.headers.getSetCookie()).toHaveLength(1);
  });

  it('matches a configured origin written with a trailing slash', async () => {
    const res = await call('https://m.partner.example');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://m.partner.example');
  });

  it('answers an allowed preflight with 204, the origin, credentials and GET', async () => {
    const res = await call('https://www.partner.example', preflight);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://www.partner.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it.each([
    ['another site', 'https://evil.example'],
    ['a look-alike of an allowed origin', 'https://www.partner.example.evil.example'],
    ['http instead of https', 'http://www.partner.example'],
    ['an opaque origin', 'null'],
  ])('refuses %s with 403 and no CORS header, id or cookie', async (_, origin) => {
    for (const init of [{}, preflight]) {
      const res = await call(origin, init);
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await res.text()).not.toContain('userId');
    }
  });

  it('refuses every other origin when TRACE_ALLOWED_ORIGINS is empty (same origin only)', async () => {
    const res = await call('https://www.partner.example', {}, '');
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves the page’s own origin without CORS headers', async () => {
    const res = await get('/api/trace', { headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.getSetCookie()).toHaveLength(1);
  });

  it('refuses a cross-site request without Origin (an <img> on another site): no id minted, none counted', async () => {
    const log = vi.spyOn(console, 'log');
    const res = await get('/api/trace', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' } });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await res.text()).not.toContain('userId');
    expect(log).not.toHaveBeenCalledWith(expect.objectContaining({ event: 'trace' }));
  });

  it('serves requests without Origin from the same site, the same origin, the address bar or no browser', async () => {
    for (const site of ['same-site', 'same-origin', 'none', undefined]) {
      const res = await get('/api/trace', { headers: site ? { 'sec-fetch-site': site } : {} });
      expect(res.status, String(site)).toBe(200);
      expect(res.headers.getSetCookie()).toHaveLength(1);
    }
  });

  it('serves a cross-site call from an allowed origin', async () => {
    const res = await call('https://www.partner.example', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.status).toBe(200);
  });

  it('reads the configured list leniently: trims, normalises, drops what is not an http(s) origin', () => {
    expect([...parseOrigins(' https://a.example/ ,*, null,,ftp://b.example, http://c.example:8080/path')]).toEqual([
      'https://a.example',
      'http://c.example:8080',
    ]);
    expect(parseOrigins('').size).toBe(0);
    expect(parseOrigins(undefined).size).toBe(0);
  });
});
