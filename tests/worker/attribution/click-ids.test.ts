/**
 * `GET /api/a/click-ids` (docs/attribution.md, "Which clicks credit"): what a page is issued, and that
 * nothing but what the worker issued passes for an issued id.
 */
import { exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLICK_ID, CLICK_IDS_PER_CALL } from '../../../shared/attribution.ts';
import { toBase64Url } from '../../../shared/base64url.ts';
import { isIssuedClickId } from '../../../worker/attribution/click-id.ts';
import { DEV_ATTRIBUTION_SALT } from '../../../worker/settings.ts';
import { ORIGIN } from '../helpers.ts';

const ask = (method = 'GET', address = '100.70.0.1') =>
  exports.default.fetch(new Request(`${ORIGIN}/api/a/click-ids`, { method, headers: { 'cf-connecting-ip': address } }));

describe('GET /api/a/click-ids', () => {
  it('issues fresh ids in the click id spelling, never kept by a cache, each one verifying', async () => {
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { clickIds } = (await res.json()) as { clickIds: string[] };
    expect(clickIds).toHaveLength(CLICK_IDS_PER_CALL);
    expect(new Set(clickIds).size).toBe(CLICK_IDS_PER_CALL);
    for (const id of clickIds) {
      expect(id).toMatch(CLICK_ID);
      expect(await isIssuedClickId(DEV_ATTRIBUTION_SALT, id)).toBe(true);
      expect(await isIssuedClickId('another deployment', id)).toBe(false);
    }
  });

  it('answers only GET', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await ask(method);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    }
  });

  it('takes no click id it did not issue: any other 16 bytes, or one bit changed in an issued one', async () => {
    const { clickIds } = (await (await ask('GET', '100.70.0.2')).json()) as { clickIds: string[] };
    const issued = clickIds[0] ?? '';
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 16, maxLength: 16 }), async (bytes) => {
        const id = toBase64Url(bytes);
        if (id !== issued) expect(await isIssuedClickId(DEV_ATTRIBUTION_SALT, id)).toBe(false);
      }),
      { numRuns: 300 },
    );
    const flips = [...issued].map((ch, at) => `${issued.slice(0, at)}${ch === 'A' ? 'B' : 'A'}${issued.slice(at + 1)}`);
    for (const id of flips) expect(await isIssuedClickId(DEV_ATTRIBUTION_SALT, id)).toBe(false);
  });
});
