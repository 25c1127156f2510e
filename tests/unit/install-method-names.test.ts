/**
 * The console names every install method by its source (docs/attribution.md#deterministic-sources),
 * in English and Chinese: a method the worker answers never shows as its raw key.
 */
import { describe, expect, it } from 'vitest';
import { breakdown } from '../../client/app/admin/funnel/funnel-table.tsx';
import { funnelWords } from '../../client/app/admin/funnel/funnel-texts.ts';
import type { Language } from '../../shared/texts.ts';
import { MATCH_METHODS } from '../../shared/webhooks.ts';

describe('install method names', () => {
  it.each<Language>(['en', 'zh-CN'])('name every method in %s, each name its own', (language) => {
    const names = funnelWords(language).methodNames;
    expect(Object.keys(names).sort()).toEqual([...MATCH_METHODS].sort());
    expect(new Set(Object.values(names)).size).toBe(MATCH_METHODS.length);
  });

  it("show the stores' sources by name in the methods' breakdown", () => {
    const counts = { appgallery: 3, referrer: 2, apk: 1 };
    expect(breakdown(counts, funnelWords('en').methodNames)).toBe(
      'AppGallery referrer 3 · Play referrer 2 · stamped APK 1',
    );
    expect(breakdown(counts, funnelWords('zh-CN').methodNames)).toBe('华为应用市场引荐 3 · Play 引荐 2 · APK 戳记 1');
  });

  it("show Meta's install referrer by name, never as `meta`", () => {
    const counts = { meta: 4, clipboard: 1 };
    expect(breakdown(counts, funnelWords('en').methodNames)).toMatch(/^Meta referrer 4 · /);
    expect(breakdown(counts, funnelWords('zh-CN').methodNames)).toMatch(/^Meta 引荐 4 · /);
  });
});
