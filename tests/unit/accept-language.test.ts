import { describe, expect, it } from 'vitest';
import { languageRanges, preferredLocale } from '../../shared/device/locale.ts';
import { pickLanguage } from '../../shared/texts.ts';

describe('the Accept-Language parser', () => {
  it('ranks the tags by weight, the header order on a tie', () => {
    expect(languageRanges('fr;q=0.5, en-us;q=0.9, de, zh-cn')).toEqual(['de', 'zh-CN', 'en-US', 'fr']);
  });

  it('leaves out *, malformed tags and weight 0', () => {
    expect(languageRanges('*, <script>, 12, ja;q=0, ko;q=abc, it')).toEqual(['it']);
  });

  it('reads a single tag as navigator.language gives it', () => {
    expect(languageRanges('en_GB')).toEqual(['en-GB']);
  });

  it('gives detection the first ranked tag as the locale', () => {
    expect(preferredLocale('fr;q=0.5, en-us;q=0.9')).toBe('en-US');
    expect(preferredLocale('*')).toBe('');
  });
});

describe('the page language', () => {
  it('is the first ranked tag that is Chinese or English', () => {
    expect(pickLanguage('fr, zh-TW;q=0.8, en;q=0.5')).toBe('zh-CN');
    expect(pickLanguage('fr, en;q=0.5')).toBe('en');
  });

  it('is English when neither is asked for', () => {
    expect(pickLanguage('fr, de')).toBe('en');
    expect(pickLanguage(undefined)).toBe('en');
  });
});
