/**
 * `PUT /api/links/<slug>/variants` for any body, through the real worker and D1
 * (docs/smart-links.md#variants-and-the-sequential-test): names that are an object's own keys
 * (`__proto__`, `constructor`), weights of 0, below 0, above the cap, fractional or not numbers, a
 * name twice, too few or too many variants. A body the contract takes is kept and answered as sent,
 * and every visitor of the link then sees a variant of weight above 0; any other is a 400 naming its
 * field and changes nothing; never a 5xx.
 */
import { exports } from 'cloudflare:workers';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ExperimentSchema } from '../../../shared/variants.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { get, handoffOf, ORIGIN } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };

function admin(path: string, method = 'GET', body?: unknown): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: auth,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

// Mostly what the contract takes (an own key of every object among the names), sometimes not.
const names = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('a', 'b', 'control', '__proto__', 'constructor', 'toString') },
  { weight: 1, arbitrary: fc.constantFrom('has space', '', 'x'.repeat(33)) },
);
const weights = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(-1, 10_000, 10_001, 0.5, Number.MAX_SAFE_INTEGER, 1e308, '1', null),
  },
);
const variant = fc.record(
  {
    name: names,
    weight: weights,
    headline: fc.oneof(
      { weight: 12, arbitrary: fc.constant('Notes that stay') },
      { weight: 1, arbitrary: fc.constantFrom(' ', 'x'.repeat(121)) },
    ),
  },
  { requiredKeys: ['name', 'weight'] },
);
const body = fc.record(
  {
    variants: fc.oneof(
      { weight: 4, arbitrary: fc.uniqueArray(variant, { minLength: 2, maxLength: 4, selector: ({ name }) => name }) },
      { weight: 1, arbitrary: fc.array(variant, { minLength: 0, maxLength: 10 }) },
    ),
    event: fc.constantFrom('signup', 'Sign Up', null),
  },
  { requiredKeys: ['variants'] },
);

describe('PUT /api/links/<slug>/variants, for any body', () => {
  it('keeps what the contract takes, and every visitor then sees a weighted variant; refuses the rest with 400', async () => {
    const slug = `vp-${crypto.randomUUID().slice(0, 8)}`;
    expect((await admin('/api/links', 'POST', { channel: 'variants-property', slug })).status).toBe(201);
    let kept: unknown = null;
    await fc.assert(
      fc.asyncProperty(body, fc.uuid({ version: 4 }), async (sent, visitor) => {
        const res = await admin(`/api/links/${slug}/variants`, 'PUT', sent);
        const parsed = v.safeParse(ExperimentSchema, sent);
        if (!parsed.success) {
          expect(res.status).toBe(400);
          expect((await res.json<{ error: string }>()).error).toMatch(/^(variants|event)/);
        } else {
          expect(res.status).toBe(200);
          kept = parsed.output;
        }
        const stored = await admin(`/api/links/${slug}/variants`);
        if (kept === null) expect(stored.status).toBe(404);
        else expect(await stored.json()).toEqual(kept);
        if (!parsed.success) return;
        const page = await get(`/s/${slug}`, { userAgent: UA.iPhoneSafari, headers: { cookie: `user_id=${visitor}` } });
        expect(page.status).toBe(200);
        const shown: string = handoffOf(await page.text()).handoff.landing.variant.name;
        const weighted = parsed.output.variants.filter(({ weight }) => weight > 0).map(({ name }) => name);
        expect(weighted).toContain(shown);
      }),
      { numRuns: 60 },
    );
  });
});
