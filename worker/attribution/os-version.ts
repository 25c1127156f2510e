/**
 * The OS version a visit really reports (docs/attribution.md). Browsers now freeze it in their agent
 * for privacy, so a frozen value must never count as evidence either way:
 * - Chrome's reduced agent (and Samsung Internet, Edge and others on Chromium) says `Android 10; K`
 *   whatever the phone runs; the `Sec-CH-UA-Platform-Version` hint, where given, is the real one.
 * - Safari 26 and every iOS 26 webview say `iPhone OS 18_6` whatever the phone runs; Safari's own
 *   `Version/26.x` token still follows the system, a webview has none.
 * - HarmonyOS NEXT names its real version (`OpenHarmony 5.0`); Android-based HarmonyOS 2–4 report
 *   their Android version.
 */
import { detectHarmony } from '../../shared/device/harmony.ts';
import type { ClientHints, DeviceInfo } from '../../shared/device/types.ts';
import type { OsFamily } from '../facts.ts';

export interface ReportedOs {
  family: OsFamily;
  /** `major` or `major.minor`; null where the agent's version is frozen and no hint tells. */
  version: string | null;
  /** The model where the visit names a real one (Android), else null. */
  model: string | null;
}

/** What the visit's hints say (headers or `navigator.userAgentData`, cleaned). */
export type OsHints = Pick<ClientHints, 'platformVersion' | 'model'>;

const IOS = /\b(?:iPhone|CPU) OS (\d+)_(\d+)/;
const IPAD_DESKTOP = /\bMacintosh\b.*\bVersion\/(\d+)(?:\.(\d+))?.*\bSafari\//;
const SAFARI_VERSION = /\bVersion\/(\d+)(?:\.(\d+))?/;
const ANDROID = /\bAndroid (\d+)/;
/** The iOS version Safari 26 and iOS 26 webviews freeze their agents at. */
const FROZEN_IOS = '18.6';
/** Chrome's reduced agent: `Android 10; K`. */
const REDUCED_MODEL = 'K';

const majorOf = (version: string | undefined) => {
  const major = version ? /^(\d+)/.exec(version)?.[1] : undefined;
  return major ? String(Number(major)) : null;
};

function iosVersion(userAgent: string): string | null {
  const match = IOS.exec(userAgent);
  const safari = SAFARI_VERSION.exec(userAgent);
  if (!match) {
    // iPadOS in desktop mode names no iOS version; Safari's own version is the system's.
    const desktop = IPAD_DESKTOP.exec(userAgent);
    return desktop ? `${Number(desktop[1])}.${Number(desktop[2] ?? 0)}` : null;
  }
  const version = `${Number(match[1])}.${Number(match[2])}`;
  if (version !== FROZEN_IOS) return version;
  // 18.6 is frozen from Safari 26 on: only Safari's own version (26 and later) still tells.
  const safariMajor = Number(safari?.[1] ?? 0);
  if (safariMajor === 18) return version;
  return safariMajor >= 26 ? String(safariMajor) : null;
}

function androidOs(device: VisitDevice, hints: OsHints): ReportedOs {
  const reduced = device.device_model === REDUCED_MODEL;
  const version = majorOf(hints.platformVersion) ?? (reduced ? null : majorOf(ANDROID.exec(device.userAgent)?.[1]));
  const model = hints.model || (reduced ? '' : device.device_model);
  return { family: 'android', version, model: model || null };
}

/** What detection found (docs/device.md): the agent, the OS, the model (hint first, then agent). */
export type VisitDevice = Pick<DeviceInfo, 'userAgent' | 'operatingSystem' | 'device_model'>;

/**
 * The OS a page visit reports, from its agent and hints; null for a desktop or anything that does
 * not install apps.
 */
export function reportedOs(device: VisitDevice, hints: OsHints = {}): ReportedOs | null {
  const { userAgent, operatingSystem } = device;
  if (operatingSystem === 'iOS') return { family: 'ios', version: iosVersion(userAgent), model: null };
  if (operatingSystem === 'Android') return androidOs(device, hints);
  if (operatingSystem === 'Harmony') {
    const harmony = detectHarmony(userAgent);
    // HarmonyOS 2–4 run Android apps, which report Android.
    if (!harmony?.next) return androidOs(device, hints);
    return { family: 'harmony', version: majorOf(harmony.version), model: null };
  }
  return null;
}

/** The version an app reports, to the precision the match compares: `major.minor` on iOS, else major. */
export function appOsVersion(family: OsFamily, osVersion: string): string | null {
  const match = /^(\d+)(?:\.(\d+))?/.exec(osVersion.trim());
  if (!match) return null;
  return family === 'ios' ? `${Number(match[1])}.${Number(match[2] ?? 0)}` : String(Number(match[1]));
}

/**
 * Whether two reported versions can be the same system: equal majors, and equal minors when both
 * name one. A version that is not known (null) never decides.
 */
export function sameVersion(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return true;
  const [aMajor, aMinor] = a.split('.');
  const [bMajor, bMinor] = b.split('.');
  if (aMajor !== bMajor) return false;
  return aMinor === undefined || bMinor === undefined || aMinor === bMinor;
}
