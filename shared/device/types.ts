/** The shapes of device detection (docs/device.md), shared by the worker and the browser. */

/** The platform the page offers a download for. */
export type OperatingSystem = 'PC' | 'iOS' | 'Android' | 'Harmony';
/** The kind of app whose webview the visitor is in (docs/device.md). */
export type InAppCategory = 'messaging' | 'payment' | 'social' | 'search';

/** The in-app browser the visitor is in, with what its webview refuses on this OS. */
export interface InApp {
  name: string;
  category: InAppCategory;
  /** This app's webview refuses file downloads on this OS (show the open-in-browser guide). */
  blocksDownloads: boolean;
  /** This app's webview refuses custom URL schemes on this OS (the app cannot be opened from it). */
  blocksSchemes: boolean;
  /** The app's own version from its agent token, `''` when the token carries none. Set by detection. */
  version?: string;
  /** A Universal Link tapped in this webview opens the app (iOS WeChat ≥ 7.0.5, docs/screens.md). Set by detection. */
  universalLinks?: boolean;
}

/** The visitor's device (docs/device.md); docs/device.md explains each field. */
export interface DeviceInfo {
  userAgent: string;
  operatingSystem: OperatingSystem;
  browser: string;
  referrer: string;
  width: number;
  height: number;
  device_model: string;
  device_model_name: string;
  device_version: string;
  device_system_name: string;
  device_locale: string;
  language: string;
  mobile: boolean;
  os: string;
  osVersion: string;
  inApp: InApp | null;
  bot: boolean;
}

/** User-Agent Client Hints (`Sec-CH-UA-*` headers or `navigator.userAgentData`), already cleaned. */
export interface ClientHints {
  mobile?: boolean;
  platform?: string;
  platformVersion?: string;
  model?: string;
}

/** Longest User-Agent we parse; longer agents are cut before any regular expression sees them. */
export const MAX_USER_AGENT = 512;
/** Longest referrer we keep. */
export const MAX_REFERRER = 2048;
