/**
 * The verdict (docs/device.md): what the pages read of a detected device, and nothing more. Two
 * visitors with one verdict get the same page, so kept pages are keyed by it (docs/architecture.md),
 * not by the raw agent: every phone model and browser build is its own string, but only a handful of
 * verdicts exist. A field joins the verdict only when a screen shows or decides something with it:
 * `mobile` is not one (a page's layout follows the system, an Android tablet gets the phone's page).
 */
import type { DeviceInfo, InApp, OperatingSystem } from './types.ts';

/** The browsers a screen treats apart (docs/screens.md): Chrome opens `intent://`, Baidu has its own scheme. */
export type BrowserKind = 'Chrome' | 'Baidu' | 'other';

/** What the pages read of a device. Made by `verdictOf`; equal verdicts are one shared, frozen object. */
export interface Verdict {
  operatingSystem: OperatingSystem;
  browser: BrowserKind;
  bot: boolean;
  /** An Android app's webview (`; wv)` in the agent): intents and their fallbacks do not work there. */
  webView: boolean;
  /** HarmonyOS 2–4, which install Android APKs; false on HarmonyOS NEXT and every other system. */
  installsApk: boolean;
  /** The in-app browser as the screens use it: its name, kind and what its webview refuses. */
  inApp: Readonly<InApp> | null;
}

/**
 * HarmonyOS 2–4 are Android underneath and install APKs; their agents carry an `Android` token.
 * HarmonyOS NEXT (5 and later) cannot, and says `OpenHarmony` or `ArkWeb` (even beside `Android 10`).
 */
export function harmonyInstallsApk(userAgent: string): boolean {
  return /\bAndroid\b/i.test(userAgent) && !/OpenHarmony|ArkWeb/i.test(userAgent);
}

const WEBVIEW = /;\s*wv\)/;

// A few dozen verdicts exist at most (systems × browser kinds × in-app browsers × flags): one object each.
const verdicts = new Map<string, Verdict>();

/** The verdict of `device`: one frozen object per distinct verdict, so it can key by identity. */
export function verdictOf(device: DeviceInfo): Verdict {
  const { operatingSystem, bot, inApp, userAgent } = device;
  const browser: BrowserKind = device.browser === 'Chrome' || device.browser === 'Baidu' ? device.browser : 'other';
  const webView = operatingSystem === 'Android' && WEBVIEW.test(userAgent);
  const installsApk = operatingSystem === 'Harmony' && harmonyInstallsApk(userAgent);
  // The in-app app's version decides `universalLinks` in detection; the screens read only the flags.
  const app: InApp | null = inApp && {
    name: inApp.name,
    category: inApp.category,
    blocksDownloads: inApp.blocksDownloads,
    blocksSchemes: inApp.blocksSchemes,
    universalLinks: inApp.universalLinks === true,
  };
  const key = JSON.stringify([operatingSystem, browser, bot, webView, installsApk, app]);
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = Object.freeze({
      operatingSystem,
      browser,
      bot,
      webView,
      installsApk,
      inApp: app && Object.freeze(app),
    });
    verdicts.set(key, verdict);
  }
  return verdict;
}
