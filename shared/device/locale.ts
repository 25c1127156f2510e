/** The visitor's locale (docs/device.md `device_locale`, `language`) from Accept-Language or `navigator.language`. */

const TAG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8}){0,3}$/i;
/** Longest Accept-Language read; the rest of a longer header is never parsed. */
export const MAX_ACCEPT_LANGUAGE = 512;

/** A BCP 47 tag in its usual casing: `zh-cn` → `zh-CN`, `zh-hans-cn` → `zh-Hans-CN`, `en_US` → `en-US`. */
function canonical(tag: string): string {
  const [language = '', ...rest] = tag.replace(/_/g, '-').split('-');
  const parts = rest.map((part) =>
    part.length === 2
      ? part.toUpperCase()
      : part.length === 4
        ? part.charAt(0).toUpperCase() + part.slice(1).toLowerCase()
        : part,
  );
  return [language.toLowerCase(), ...parts].join('-');
}

/**
 * The one Accept-Language parser: the well-formed language tags of a header (or the single tag
 * `navigator.language` gives), in their usual casing, most wanted first (the header's order on a
 * tie). `*`, malformed tags and weight 0 are left out.
 */
export function languageRanges(acceptLanguage: string): string[] {
  const ranges: { tag: string; weight: number }[] = [];
  for (const part of acceptLanguage.slice(0, MAX_ACCEPT_LANGUAGE).split(',')) {
    const [rawTag = '', ...params] = part.trim().split(';');
    const tag = rawTag.trim().replace(/_/g, '-');
    if (!TAG.test(tag)) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (Number.isFinite(weight) && weight > 0) ranges.push({ tag: canonical(tag), weight });
  }
  // Array.prototype.sort is stable: equal weights keep the header's order.
  return ranges.sort((a, b) => b.weight - a.weight).map((range) => range.tag);
}

/**
 * The preferred locale: the Accept-Language range with the highest weight (first on a tie), or a
 * single tag as `navigator.language` gives it. `''` when nothing well-formed is there (`*` included).
 */
export function preferredLocale(acceptLanguage: string): string {
  return languageRanges(acceptLanguage)[0] ?? '';
}

/** The primary language subtag of a locale: `zh-CN` → `zh`. */
export function primaryLanguage(locale: string): string {
  return locale.split('-')[0] ?? '';
}
