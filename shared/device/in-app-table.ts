/**
 * The one in-app browser table (docs/device.md): which app's webview the visitor is in, and what
 * that webview refuses on each OS (docs/screens.md: the download button shows the "open in the
 * system browser" guide instead). ua-parser-js misses several of these (Douyin iOS, DingTalk,
 * WhatsApp, Facebook's `MetaIAB`, Quark), so the tokens are ours. Order matters: the first match
 * wins, so an app whose agent also carries another app's token comes first (WeCom sends
 * `MicroMessenger`, Messenger sends Facebook's `FBAV`, Threads and Instagram come before Facebook).
 * Browsers (UC, QQ Browser, Huawei, OPPO, Samsung, Chrome, Safari, Firefox, Edge) are not here.
 * A token is an app's webview token: it counts only outside URLs, and a bot that names an app
 * (Pinterest's crawler, Snapchat's previewer) is never in-app (detect.ts).
 */
import type { InApp, InAppCategory, OperatingSystem } from './types.ts';
import { compareVersions, firstGroup } from './version.ts';

/** What a webview refuses: `downloads` (APK / store links), `schemes` (custom URL schemes), both or neither. */
export type Blocks = 'nothing' | 'downloads' | 'schemes' | 'both';

/** One row of the in-app table. */
export interface InAppEntry {
  name: string;
  category: InAppCategory;
  /** The agent token. `null`: the app sends none and is recognised in the browser only (Telegram). */
  match: RegExp | null;
  /** Where the app's version is; the first capture group that matched. Defaults to `match`'s groups. */
  version?: RegExp;
  /** What the iOS webview refuses. */
  iOS: Blocks;
  /** What the Android webview refuses (also HarmonyOS 2–4, which runs the Android app). */
  android: Blocks;
  /** What the HarmonyOS NEXT webview refuses; defaults to `android`. */
  harmony?: Blocks;
  /** iOS app version from which a tapped Universal Link opens the app (docs/screens.md). */
  universalLinksSince?: string;
}

/**
 * The table, first match wins. Policies: the Chinese super-apps keep visitors inside (no APK
 * downloads, no custom schemes on Android; no custom schemes on iOS, where App Store links still
 * open); Douyin, Kuaishou and Xiaohongshu also hold back App Store links. The Baidu app opens
 * `bdashighdown` (docs/screens.md). The global apps' webviews let downloads and scheme launches through.
 */
export const IN_APP_TABLE: readonly InAppEntry[] = [
  { name: 'WeCom', category: 'messaging', match: /\bwxwork\/([\d.]+)/i, iOS: 'schemes', android: 'both' },
  {
    name: 'WeChat',
    category: 'messaging',
    match: /\bMicroMessenger\/([\d.]+)/i,
    iOS: 'schemes',
    android: 'both',
    universalLinksSince: '7.0.5',
  },
  // `QQ/` exactly: QQ Browser sends `MQQBrowser/` or `QQBrowser/`, and it is a browser.
  { name: 'QQ', category: 'messaging', match: /\bQQ\/([\d.]+)/, iOS: 'schemes', android: 'both' },
  { name: 'DingTalk', category: 'messaging', match: /\bDingTalk\/([\d.]+)/i, iOS: 'schemes', android: 'schemes' },
  { name: 'Alipay', category: 'payment', match: /\bAlipayClient(?:HK)?\/([\d.]+)/i, iOS: 'schemes', android: 'both' },
  { name: 'PayPal', category: 'payment', match: /\bPayPal(?:Mobile)?\/([\d.]+)/i, iOS: 'nothing', android: 'nothing' },
  {
    name: 'Weibo',
    category: 'social',
    match: /\bWeibo\b|__weibo__/i,
    version: /__weibo__([\d.]+)/i,
    iOS: 'schemes',
    android: 'both',
  },
  {
    name: 'Douyin',
    category: 'social',
    match: /\baweme/i,
    version: /\baweme[_/](\d+\.[\d.]+)|\bapp_version\/([\d.]+)/i,
    iOS: 'both',
    android: 'both',
  },
  {
    name: 'TikTok',
    category: 'social',
    // `trill_` is sometimes glued to the token before it (`Safari/537.36trill_350603`); TikTok Lite
    // sends only `AppName/musically_go` or `AppName/ultralite`.
    match:
      /(?:trill|musical_ly)_\d|\bTikTok[ /]\d|com\.zhiliaoapp\.musically|\bAppName\/(?:musical_ly|musically_go|trill|ultralite)\b/i,
    version: /(?:trill|musical_ly)_(\d+\.[\d.]+)|\bapp_version\/([\d.]+)|\bTikTok[ /]([\d.]+)/i,
    iOS: 'schemes',
    android: 'both',
  },
  {
    name: 'Kuaishou',
    category: 'social',
    match: /\b(?:Kwai(?:_Pro)?|ksNebula)\/([\d.]+)/i,
    iOS: 'both',
    android: 'both',
  },
  {
    name: 'Xiaohongshu',
    category: 'social',
    match: /\bXiaoHongShu\/([\d.]+)|\bdiscover\/([\d.]+) \(iP(?:hone|ad)/i,
    iOS: 'both',
    android: 'both',
  },
  // Threads' code name; its agent carries Instagram-style fields.
  { name: 'Threads', category: 'social', match: /\bBarcelona ([\d.]+)/, iOS: 'nothing', android: 'nothing' },
  {
    name: 'Instagram',
    category: 'social',
    match: /\bInstagram\b(?:[ /]([\d.]+))?/,
    iOS: 'nothing',
    android: 'nothing',
  },
  {
    name: 'Messenger',
    category: 'messaging',
    match: /\bFB_IAB\/(?:Orca-Android|MESSENGER)|\bFBAN\/Messenger|\bMessengerForiOS/,
    version: /\bFBAV\/([\d.]+)/,
    iOS: 'nothing',
    android: 'nothing',
  },
  {
    name: 'Facebook',
    category: 'social',
    match: /\bFBAN\/|\bFB_IAB\/|\bFBAV\/|\bMetaIAB\b/,
    version: /\bFBAV\/([\d.]+)/,
    iOS: 'nothing',
    android: 'nothing',
  },
  // The in-app browser; the link previewer (`WhatsApp/2.x` alone) is a bot, not this.
  {
    name: 'WhatsApp',
    category: 'messaging',
    match: /\bWA(?:iOS|4A)\/([\d.]+)|^Mozilla\/.*\bWhatsApp\/([\d.]+)/,
    iOS: 'nothing',
    android: 'nothing',
  },
  { name: 'LINE', category: 'messaging', match: /\bLine\/([\d.]+)/, iOS: 'nothing', android: 'nothing' },
  {
    name: 'KakaoTalk',
    category: 'messaging',
    match: /\bKAKAOTALK\b(?: ([\d.]+))?/i,
    iOS: 'nothing',
    android: 'nothing',
  },
  { name: 'Viber', category: 'messaging', match: /\bViber\/([\d.]+)/i, iOS: 'nothing', android: 'nothing' },
  {
    name: 'Zalo',
    category: 'messaging',
    match: /\bZalo(?: android| iOS)?\/([\d.]+)/i,
    iOS: 'nothing',
    android: 'nothing',
  },
  // Telegram sends no token: the browser sees `window.TelegramWebview` / `TelegramWebviewProxy`.
  { name: 'Telegram', category: 'messaging', match: null, iOS: 'nothing', android: 'nothing' },
  { name: 'Snapchat', category: 'social', match: /Snapchat\/?(\d[\d.]*)/i, iOS: 'nothing', android: 'nothing' },
  {
    name: 'X',
    category: 'social',
    match: /\bTwitter(?:Android| for iP(?:hone|ad))(?:\/([\d.]+))?/,
    iOS: 'nothing',
    android: 'nothing',
  },
  {
    name: 'LinkedIn',
    category: 'social',
    match: /\bLinkedInApp\]?(?:\/([\d.]+))?/,
    iOS: 'nothing',
    android: 'nothing',
  },
  {
    name: 'Reddit',
    category: 'social',
    match: /\bReddit\/(?:Version )?([\d.]+)/,
    iOS: 'nothing',
    android: 'nothing',
  },
  {
    name: 'Pinterest',
    category: 'social',
    match: /\[Pinterest\/|\bPinterest for (?:Android|iOS)|\bPinterest\/(?:iOS|Android|([\d.]+))/,
    iOS: 'nothing',
    android: 'nothing',
  },
  { name: 'Baidu', category: 'search', match: /\bbaiduboxapp\/([\d.]+)/i, iOS: 'nothing', android: 'nothing' },
  {
    name: 'Google',
    category: 'search',
    match: /\bGSA\/([\d.]+)|\bGoogleApp\/([\d.]+)/,
    iOS: 'nothing',
    android: 'nothing',
  },
  {
    name: 'Bing',
    category: 'search',
    match: /\b(?:Bing)?Sapphire\/([\d.]+)|\bBingWeb\/([\d.]+)/,
    iOS: 'nothing',
    android: 'nothing',
  },
  { name: 'Quark', category: 'search', match: /\bQuark\/([\d.]+)/i, iOS: 'nothing', android: 'nothing' },
  {
    name: 'Sogou',
    category: 'search',
    match: /\bSogouSearch\b/i,
    version: /\bSogouSearch\b.*?\bversion([\d.]+)/i,
    iOS: 'nothing',
    android: 'nothing',
  },
  {
    name: 'NAVER',
    category: 'search',
    match: /\bNAVER\(inapp;/,
    version: /\bNAVER\(inapp;[^;)]*;[^;)]*;\s*([\d.]+)/,
    iOS: 'nothing',
    android: 'nothing',
  },
];

const URL_IN_AGENT = /\b(?:https?:\/\/|www\.)[^\s;)]*/gi;
const HAS_URL = /https?:\/\/|www\./i;
const TELEGRAM = IN_APP_TABLE.find((entry) => entry.name === 'Telegram');

function blocksOn(entry: InAppEntry, os: OperatingSystem): Blocks {
  switch (os) {
    case 'iOS':
      return entry.iOS;
    case 'Android':
      return entry.android;
    case 'Harmony':
      return entry.harmony ?? entry.android;
    case 'PC':
      // Desktop webviews (WeChat for Windows, …) get the QR code and store links anyway.
      return 'nothing';
  }
}

/** The verdict for one table entry on one OS. */
export function inAppFor(entry: InAppEntry, os: OperatingSystem, version: string): InApp {
  const blocks = blocksOn(entry, os);
  return {
    name: entry.name,
    category: entry.category,
    blocksDownloads: blocks === 'downloads' || blocks === 'both',
    blocksSchemes: blocks === 'schemes' || blocks === 'both',
    version,
    universalLinks:
      os === 'iOS' &&
      entry.universalLinksSince !== undefined &&
      version !== '' &&
      compareVersions(version, entry.universalLinksSince) >= 0,
  };
}

/**
 * The in-app browser an agent belongs to, or `null`. `telegram` is the browser's own signal
 * (`window.TelegramWebview` / `TelegramWebviewProxy`), used only when no token matched. URLs in the
 * agent are blanked first (`+https://www.snapchat.com` is a crawler's contact, not Snapchat).
 */
export function detectInApp(userAgent: string, os: OperatingSystem, telegram = false): InApp | null {
  const agent = HAS_URL.test(userAgent) ? userAgent.replace(URL_IN_AGENT, ' ') : userAgent;
  for (const entry of IN_APP_TABLE) {
    if (!entry.match) continue;
    const match = entry.match.exec(agent);
    if (!match) continue;
    const version = entry.version ? firstGroup(entry.version.exec(agent)) : firstGroup(match);
    return inAppFor(entry, os, version);
  }
  return telegram && TELEGRAM ? inAppFor(TELEGRAM, os, '') : null;
}
