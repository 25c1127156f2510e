/** The shell's text tables (docs/screens.md, Languages): a zh-CN visitor reads no English string. */
import { describe, expect, it } from 'vitest';
import { texts } from '../../shared/texts.ts';

describe("the shell's texts", () => {
  it('gives every string of the zh-CN table its own Chinese text, not the English one', () => {
    const en = texts('en');
    const zh = texts('zh-CN');
    const untranslated = (Object.keys(en) as (keyof typeof en)[]).filter((key) => zh[key] === en[key]);
    expect(untranslated).toEqual([]);
    for (const text of Object.values(zh)) expect(text).toMatch(/\p{Script=Han}/u);
  });
});
