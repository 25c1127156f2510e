/**
 * The visitor's device (PRODUCT.md §3). One module for the worker and the browser.
 * The worker calls `detectDevice` with request headers; the browser refines the result
 * with screen size, touch and client hints after hydration.
 */
import UAParser from 'ua-parser-js';

export type OperatingSystem = 'PC' | 'iOS' | 'Android' | 'Harmony';
export type InAppCategory = 'messaging' | 'payment' | 'social' | 'search';

export interface InApp {
  name: string;
  category: InAppCategory;
  /** This app's webview refuses file downloads on this OS (show the open-in-browser guide). */
  blocksDownloads: boolean;
  /** This app's webview refuses custom URL schemes on this OS (the app cannot be opened from it). */
  blocksSchemes: boolean;
}

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

/** Longest User-Agent we parse; longer agents are cut before any regular expression sees them. */
export const MAX_USER_AGENT = 512;

export interface DetectInput {
  userAgent: string;
  referrer?: string;
  acceptLanguage?: string;
}

/** Detects the device from a User-Agent and request metadata. */
export function detectDevice({ userAgent, referrer = '', acceptLanguage = '' }: DetectInput): DeviceInfo {
  const ua = userAgent.slice(0, MAX_USER_AGENT);
  const parsed = new UAParser(ua).getResult();
  const osName = parsed.os.name ?? '';
  const operatingSystem: OperatingSystem = /OpenHarmony|HarmonyOS/i.test(ua)
    ? 'Harmony'
    : osName === 'iOS'
      ? 'iOS'
      : osName === 'Android'
        ? 'Android'
        : 'PC';
  const locale = (acceptLanguage.split(',')[0] ?? '').split(';')[0]?.trim() ?? '';
  return {
    userAgent: ua,
    operatingSystem,
    browser: parsed.browser.name ?? '',
    referrer: referrer.slice(0, 2048),
    width: 0,
    height: 0,
    device_model: parsed.device.model ?? '',
    device_model_name: parsed.device.vendor ?? '',
    device_version: parsed.os.version ?? '',
    device_system_name: osName,
    device_locale: locale,
    language: locale.split('-')[0] ?? '',
    mobile: parsed.device.type === 'mobile' || operatingSystem === 'iOS' || operatingSystem === 'Android',
    os: osName,
    osVersion: parsed.os.version ?? '',
    inApp: /MicroMessenger/i.test(ua)
      ? { name: 'WeChat', category: 'messaging', blocksDownloads: true, blocksSchemes: true }
      : null,
    bot: false,
  };
}
