import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../../worker/env.ts';
import { routeRules } from '../../../worker/middleware/route-rules.ts';
import { get } from '../helpers.ts';

describe('route rules', () => {
  it('redirects with 307 when a rule names no status', async () => {
    const res = await get('/download');
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('/');
  });

  it("redirects with the rule's own status", async () => {
    const res = await get('/invite');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/landing');
  });

  it('redirects outright to a target with a protocol', async () => {
    const app = new Hono<AppEnv>().use(routeRules({ rules: [{ path: '/ios', redirect: { to: 'itms-apps://x' } }] }));
    const res = await app.request('/ios');
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('itms-apps://x');
  });

  it('sends /ios to the download page, never to a fixed App Store app', async () => {
    const res = await get('/ios');
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('/');
  });

  it('leaves paths without a rule alone', async () => {
    expect((await get('/landing')).status).toBe(200);
  });
});
