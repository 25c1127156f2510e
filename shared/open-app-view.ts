/**
 * How a tap on "Open the app" behaves, as the worker decides it and the page renders it
 * (docs/campaign-links.md): the method, the link, and the download to fall back to.
 */
import type { GuideView } from './download-view.ts';

/**
 * - `universal-link`: an https link on the link domain (iOS Universal Link, HarmonyOS NEXT App Linking), then the timer.
 * - `intent`: Android Chrome's `intent://` URL; Chrome itself falls back to the download.
 * - `scheme`: the app's URL scheme, then the timer.
 * - `guide`: this in-app browser blocks schemes: the tap shows the open-in-browser guide.
 */
export type OpenMethod = 'universal-link' | 'intent' | 'scheme' | 'guide';

/** Where the visitor goes when the app did not open: the platform's download (docs/screens.md). */
export interface OpenFallback {
  href: string;
  /** For an APK: its path on the download domains; the browser uses the reachable one (docs/config.md). */
  apkPath?: string;
}

export interface OpenAppChoice {
  method: OpenMethod;
  href: string;
  /** The download offered when the page is still visible 2500 ms after the tap (or Chrome's own fallback). */
  fallback: OpenFallback | null;
}

/** What the page renders: the worker's choice, worded in the visitor's language. */
export interface OpenAppView extends OpenAppChoice {
  /** The words the server HTML carries (docs/screens.md): "Get <app>" where the tap may end at the store. */
  label: string;
  /**
   * The words once the page has reason to believe the app is installed ("Open in <app>"), switched
   * in the browser after hydration (client/app/download/links.tsx), so a kept page stays one page.
   */
  installedLabel: string | null;
  /** Set for `guide`: what the tap shows instead of opening the app. */
  guide: GuideView | null;
}

/** docs/screens.md: shorter timers make the store open while the app is opening. */
export const FALLBACK_AFTER_MS = 2500;
