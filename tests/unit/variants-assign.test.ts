/**
 * Which variant a visitor sees (worker/variants/assign.ts, docs/smart-links.md#assignment): the same
 * on every return visit, from a fresh isolate too; split as the weights say within 1 percentage point
 * at 10,000 visitors; and the variants' schema refuses what the links API must refuse, naming why.
 */
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { MAX_VARIANTS, VariantsSchema, variantAt } from '../../shared/variants.ts';
import { assignmentKey, assignVariant } from '../../worker/variants/assign.ts';

const KEY = assignmentKey('test-salt', 'default');
const visitors = (count: number, seed: number): string[] =>
  fc.sample(fc.uuid({ version: 4 }), { numRuns: count, seed });

describe('assignment', () => {
  it('gives every returning visitor the variant of their first visit, in a fresh isolate too (100 % of 2,000)', async () => {
    const weights = [50, 30, 20];
    const ids = visitors(2000, 1);
    const first = await Promise.all(ids.map((id) => assignVariant(KEY, 'spring', id, weights)));
    // A fresh module instance: no imported key, no cache, as in another isolate.
    vi.resetModules();
    const fresh = await import('../../worker/variants/assign.ts');
    const again = [];
    for (const id of [...ids].reverse()) again.unshift(await fresh.assignVariant(KEY, 'spring', id, weights));
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(3);
  });

  it('splits visitors as the weights say, within 1 percentage point at 10,000 visitors', async () => {
    const weightLists = fc
      .array(fc.integer({ min: 0, max: 100 }), { minLength: 2, maxLength: MAX_VARIANTS })
      .filter((weights) => weights.some((weight) => weight > 0));
    await fc.assert(
      fc.asyncProperty(weightLists, fc.integer({ min: 0, max: 1e6 }), async (weights, seed) => {
        const ids = visitors(10_000, seed);
        const counts = weights.map(() => 0);
        for (const id of ids) {
          const index = await assignVariant(KEY, `link-${seed}`, id, weights);
          counts[index] = (counts[index] ?? 0) + 1;
        }
        const total = weights.reduce((sum, weight) => sum + weight, 0);
        for (const [index, weight] of weights.entries()) {
          expect(Math.abs((counts[index] ?? 0) / ids.length - weight / total)).toBeLessThanOrEqual(0.01);
          if (weight === 0) expect(counts[index]).toBe(0);
        }
      }),
      { numRuns: 12, seed: 43 },
    );
  }, 60_000);

  it('differs between links and between keys: a visitor is not in the same arm everywhere', async () => {
    const ids = visitors(400, 2);
    const on = (key: string, slug: string) => Promise.all(ids.map((id) => assignVariant(key, slug, id, [1, 1])));
    const base = await on(KEY, 'spring');
    const share = (other: number[]) => other.filter((arm, index) => arm === base[index]).length / ids.length;
    expect(share(await on(KEY, 'autumn'))).toBeLessThan(0.65);
    expect(share(await on(assignmentKey('other-salt', 'default'), 'spring'))).toBeLessThan(0.65);
    expect(share(await on(assignmentKey('test-salt', 'sketch'), 'spring'))).toBeLessThan(0.65);
  });

  it('lays the weights end to end on [0, 1), skipping a weight of 0', () => {
    expect(variantAt([1, 0, 1], 0)).toBe(0);
    expect(variantAt([1, 0, 1], 0.4999)).toBe(0);
    expect(variantAt([1, 0, 1], 0.5)).toBe(2);
    expect(variantAt([0, 3], 0)).toBe(1);
    expect(variantAt([2, 1, 0], 0.9999999999999999)).toBe(1);
  });
});

describe('the variants schema', () => {
  const variant = (name: string, weight = 1) => ({ name, weight });
  const issue = (input: unknown) => {
    const result = v.safeParse(VariantsSchema, input);
    return result.success ? null : v.summarize(result.issues);
  };

  it('takes 2 to 8 variants with words, images, button and preview', () => {
    expect(
      issue([
        variant('a'),
        {
          name: 'b',
          weight: 3,
          headline: 'Get it',
          text: 'Free',
          button: 'Install',
          image: 'https://x.test/i.png',
          preview: { title: 'T' },
        },
      ]),
    ).toBeNull();
  });

  it.each([
    [[variant('a')], 'variants are at least 2'],
    [Array.from({ length: 9 }, (_, index) => variant(`v${index}`)), 'variants are at most 8'],
    [[variant('a'), variant('a')], 'variants have a name twice'],
    [[variant('a', 0), variant('b', 0)], 'variants have no weight above 0'],
    [[variant('a'), variant('b c')], 'name is 1 to 32 of A-Z, a-z, 0-9, _ and -'],
    [[variant('a'), variant('x'.repeat(33))], 'name is 1 to 32 of A-Z, a-z, 0-9, _ and -'],
    [[variant('a'), variant('b', -1)], 'weight is below 0'],
    [[variant('a'), variant('b', 1.5)], 'weight is a whole number'],
    [[variant('a'), { ...variant('b'), image: 'http://x.test/i.png' }], 'image is not an https URL'],
    [[variant('a'), { ...variant('b'), button: 'x'.repeat(41) }], 'button is longer than 40 characters'],
    [[variant('a'), { ...variant('b'), preview: { image: 'nope' } }], 'preview.image is not a URL'],
    [[variant('a'), { ...variant('b'), colour: 'red' }], 'colour'],
  ])('refuses %j naming why', (input, reason) => {
    expect(issue(input)).toContain(reason);
  });
});
