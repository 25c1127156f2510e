/**
 * Device detection (docs/device.md), the same function on the worker and in the browser:
 * ua-parser-js 1.x underneath, then our rules where it is wrong or silent — HarmonyOS, iPadOS,
 * in-app browsers, client hints, mobile. The worker passes headers; the browser also passes the
 * screen, touch and Telegram signals only it can see. docs/device.md explains every field.
 */
import UAParser from 'ua-parser-js';
import { isBotAgent } from './bot.ts';
import { hintedOsVersion, platformFamily } from './client-hints.ts';
import { detectHarmony, type Harmony, harmonyMobile } from './harmony.ts';
import { detectInApp } from './in-app-table.ts';
import { iPadOSVersion, isIPadOS } from './ipados.ts';
import { preferredLocale, primaryLanguage } from './locale.ts';
import { hasPhoneBrand, isHandheldAgent, isHandheldScreen, KINDLE, type Screen } from './mobile.ts';
import { systemFromTokens, ucAndroidVersion } from './system-tokens.ts';
import { type ClientHints, type DeviceInfo, MAX_REFERRER, MAX_USER_AGENT, type OperatingSystem } from './types.ts';

/** What detection reads: headers on the worker, the same plus screen and Telegram in the browser. */
export interface DetectInput {
  /** The User-Agent header or `navigator.userAgent`; cut at `MAX_USER_AGENT` characters. */
  userAgent: string;
  /** The Referer header or `document.referrer`. */
  referrer?: string;
  /** The Accept-Language header, or `navigator.language` in the browser. */
  acceptLanguage?: string;
  /** Client hints, already cleaned (`clientHintsFromHeaders`, `cleanClientHints`). */
  hints?: ClientHints;
  /** Browser only: screen size, touch points and orientation support. */
  screen?: Screen;
  /** Browser only: `window.TelegramWebview` or `window.TelegramWebviewProxy` exists. */
  telegram?: boolean;
}

/** What we read from ua-parser-js (engine and CPU are never parsed: detection does not use them). */
interface Parsed {
  os: UAParser.IOS;
  browser: UAParser.IBrowser;
  device: UAParser.IDevice;
}

/**
 * ua-parser-js keeps the case of the agent for some names (`mozilla/5.0 (linux; android 9; …)` gives
 * `android`, `chrome`): the names our rules compare are spelled one way (docs/device.md).
 */
const CANONICAL_NAMES: Record<string, string> = {
  android: 'Android',
  ios: 'iOS',
  'mac os': 'Mac OS',
  windows: 'Windows',
  chrome: 'Chrome',
};

function canonicalName(name: string | undefined): string | undefined {
  return name === undefined ? undefined : (CANONICAL_NAMES[name.toLowerCase()] ?? name);
}

// An explicit Android version (docs/device.md) outranks the Windows or macOS that ua-parser-js reads
// from a model name (`winnovo_T1`, `Winner8`, `DARWIN9`); the `Android` compatibility token of
// Windows Phone and Windows IoT webviews does not. Kindle Fire tablets send `KF…` models and Silk,
// sometimes without any Android token.
const ANDROID_VERSION = /\bAndroid[ /]?(\d[\d.]*)/i;
const WINDOWS_DEVICE = /\bWindows (?:Phone|Mobile|IoT)\b|\bIEMobile\b/i;

function androidVersionOf(userAgent: string, parsedOs: string): string | null {
  if (parsedOs === 'Android' || parsedOs === 'iOS' || WINDOWS_DEVICE.test(userAgent)) return null;
  const version = ANDROID_VERSION.exec(userAgent);
  if (version) return version[1] ?? '';
  // Silk names a Kindle only where no other system is named (the PlayStation Vita's browser is Silk too).
  const unnamed = parsedOs === '' || parsedOs === 'Linux' || parsedOs === 'Mac OS';
  return unnamed && KINDLE.test(userAgent) ? '' : null;
}

interface System {
  operatingSystem: OperatingSystem;
  os: string;
  osVersion: string;
  systemName: string;
  systemVersion: string;
}

function systemOf(
  userAgent: string,
  parsed: Parsed,
  harmony: Harmony | null,
  hints: ClientHints,
  iPad: boolean,
): System {
  if (harmony) {
    // NEXT calls itself OpenHarmony; HarmonyOS 2–4 present themselves to apps as Android.
    const android = /\bAndroid ([\d.]+)/.exec(userAgent)?.[1] ?? '';
    return {
      operatingSystem: 'Harmony',
      os: 'HarmonyOS',
      osVersion: harmony.version,
      systemName: harmony.next ? 'OpenHarmony' : 'Android',
      systemVersion: harmony.next ? harmony.version : android,
    };
  }
  if (iPad) {
    const version = iPadOSVersion(userAgent);
    return { operatingSystem: 'iOS', os: 'iOS', osVersion: version, systemName: 'iPadOS', systemVersion: version };
  }
  const family = platformFamily(hints.platform);
  // The agent names the OS; a hint only fills in what a reduced or missing agent leaves out.
  const readOs = canonicalName(parsed.os.name);
  const parsedOs = systemFromTokens(userAgent, readOs);
  const android = ucAndroidVersion(userAgent) ?? androidVersionOf(userAgent, parsedOs ?? '');
  const os = android === null ? (parsedOs ?? family) : 'Android';
  let osVersion = android ?? (parsedOs === readOs ? (parsed.os.version ?? '') : '');
  if (hints.platformVersion && family === os) osVersion = hintedOsVersion(family, hints.platformVersion) || osVersion;
  const operatingSystem: OperatingSystem = os === 'iOS' ? 'iOS' : os === 'Android' ? 'Android' : 'PC';
  return { operatingSystem, os, osVersion, systemName: os, systemVersion: osVersion };
}

function mobileOf(
  userAgent: string,
  os: OperatingSystem,
  parsed: Parsed,
  harmony: Harmony | null,
  hints: ClientHints,
  iPad: boolean,
  screen: Screen | undefined,
): boolean {
  if (iPad || hints.mobile === true || hasPhoneBrand(userAgent)) return true;
  // In the browser the screen decides (docs/device.md); on the worker the agent's own device class does.
  if (screen) return isHandheldScreen(screen);
  const harmonyVerdict = harmony ? harmonyMobile(harmony) : undefined;
  if (harmonyVerdict !== undefined) return harmonyVerdict;
  return isHandheldAgent(userAgent, os, parsed.device.type);
}

function modelName(vendor: string, model: string): string {
  if (!vendor) return model;
  if (!model) return vendor;
  return model.toLowerCase().startsWith(vendor.toLowerCase()) ? model : `${vendor} ${model}`;
}

/** Detects the device from what the worker or the browser can see. Never throws. */
export function detectDevice({
  userAgent,
  referrer = '',
  acceptLanguage = '',
  hints = {},
  screen,
  telegram = false,
}: DetectInput): DeviceInfo {
  const ua = userAgent.slice(0, MAX_USER_AGENT);
  const parser = new UAParser(ua);
  const parsed: Parsed = { os: parser.getOS(), browser: parser.getBrowser(), device: parser.getDevice() };
  const harmony = detectHarmony(ua);
  const iPad = !harmony && isIPadOS(canonicalName(parsed.os.name) ?? '', screen?.touchPoints);
  const system = systemOf(ua, parsed, harmony, hints, iPad);
  // A crawler or link previewer is never an in-app person, whatever app it names (docs/device.md).
  const bot = isBotAgent(ua);
  const inApp = bot ? null : detectInApp(ua, system.operatingSystem, telegram);
  const vendor = iPad ? 'Apple' : (parsed.device.vendor ?? '');
  const model = hints.model ?? (iPad ? 'iPad' : (parsed.device.model ?? ''));
  const locale = preferredLocale(acceptLanguage);
  return {
    userAgent: ua,
    operatingSystem: system.operatingSystem,
    browser: inApp?.name ?? canonicalName(parsed.browser.name) ?? '',
    referrer: referrer.slice(0, MAX_REFERRER),
    width: screen?.width ?? 0,
    height: screen?.height ?? 0,
    device_model: model,
    device_model_name: modelName(vendor, model),
    device_version: system.systemVersion,
    device_system_name: system.systemName,
    device_locale: locale,
    language: primaryLanguage(locale),
    mobile: mobileOf(ua, system.operatingSystem, parsed, harmony, hints, iPad, screen),
    os: system.os,
    osVersion: system.osVersion,
    inApp,
    bot,
  };
}
