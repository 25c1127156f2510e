/**
 * The ad networks' click parameters a page keeps when a visitor arrives from an ad
 * (docs/conversions.md#ad-click-ids): read from the page's address by the click beacon, sent with the
 * tap, kept by the tap's click no longer than the attribution window, and handed to a matched
 * install, so a conversion sent back names its ad click. The page's cache key never reads them
 * (worker/campaign/query-data.ts `pageQuery` keeps only the page's own parameters). The page's
 * entry chunk imports this file: its schema, for the worker, is ad-click-schema.ts.
 */
/**
 * Each parameter the networks write into their ads' landing addresses: `fbclid` Meta, `ttclid`
 * TikTok, `gclid` Google Ads, `gbraid`/`wbraid` Google Ads' iOS app and web campaigns, `ScCid` Snap,
 * `clickid` Ocean Engine (巨量引擎), `callback` Ocean Engine, Tencent Ads (腾讯广告) and Kuaishou
 * (快手), `gdt_vid`/`qz_gdt` Tencent Ads' WeChat and other traffic, `bd_vid` Baidu (百度). A list,
 * not a table of names: the page's entry chunk carries it.
 */
export const AD_CLICK_PARAM_NAMES = [
  'fbclid',
  'ttclid',
  'gclid',
  'gbraid',
  'wbraid',
  'ScCid',
  'clickid',
  'callback',
  'gdt_vid',
  'qz_gdt',
  'bd_vid',
] as const;

export type AdClickParam = (typeof AD_CLICK_PARAM_NAMES)[number];

/** An ad click as the page saw it: each parameter present, its first value. */
export type AdClick = Partial<Record<AdClickParam, string>>;

/** The longest value kept: Tencent's and Kuaishou's callbacks are URLs of a few hundred characters. */
export const MAX_AD_CLICK_VALUE = 1024;
/** Printable ASCII only: every network's ids and its URL-encoded callbacks are. */
export const AD_CLICK_VALUE = /^[\x21-\x7e]{1,1024}$/;

/** The ad click parameters of `params` (a page's query), or undefined when it has none. */
export function adClickOf(params: { get(name: string): string | null }): AdClick | undefined {
  const found: AdClick = {};
  for (const name of AD_CLICK_PARAM_NAMES) {
    const value = params.get(name);
    if (value !== null && AD_CLICK_VALUE.test(value)) found[name] = value;
  }
  return Object.keys(found).length > 0 ? found : undefined;
}
