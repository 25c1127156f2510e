import { describe, expect, it } from 'vitest';
import { get } from './helpers.ts';

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
    const res = await get('/ios');
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('https://apps.apple.com/app/id6740858208');
  });

  it('leaves paths without a rule alone', async () => {
    expect((await get('/landing')).status).toBe(200);
  });
});
