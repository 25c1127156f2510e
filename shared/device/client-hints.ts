/**
 * User-Agent Client Hints (docs/device.md): the worker reads `Sec-CH-UA-Mobile`, `-Platform`,
 * `-Model` and `-Platform-Version` (it asks for the last two with `Accept-CH`); the browser reads
 * the same values from `navigator.userAgentData`. Both go through `cleanClientHints`, so a visitor's
 * header can only ever become a short printable string.
 */
import type { ClientHints } from './types.ts';

/** Hints the worker asks for with `Accept-CH` (high entropy: not sent unless asked). */
export const REQUESTED_HINTS = ['Sec-CH-UA-Model', 'Sec-CH-UA-Platform-Version'] as const;
/** Every hint detection reads: responses vary on them. */
export const DETECTION_HINTS = ['Sec-CH-UA-Mobile', 'Sec-CH-UA-Platform', ...REQUESTED_HINTS] as const;

const MAX_HINT = 64;
const PRINTABLE = /^[\x20-\x7e]*$/;
const VERSION = /^\d{1,5}(?:\.\d{1,5}){0,3}$/;

export interface RawClientHints {
  mobile?: boolean | string | null;
  platform?: string | null;
  platformVersion?: string | null;
  model?: string | null;
}

/** An RFC 8941 sf-string (`"Pixel 8"`) without quotes and escapes; a bare token as is. */
export function unquoteHint(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    return trimmed.slice(1, -1).replace(/\\(["\\])/g, '$1');
  }
  return trimmed;
}

function cleanText(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = unquoteHint(value.slice(0, MAX_HINT * 2));
  if (!text || text.length > MAX_HINT || !PRINTABLE.test(text)) return undefined;
  return text;
}

function cleanMobile(value: boolean | string | null | undefined): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = value?.trim();
  // sf-boolean: `?1` / `?0`.
  if (text === '?1') return true;
  if (text === '?0') return false;
  return undefined;
}

/** Keeps only well-formed hints: short printable strings, a dotted version, a boolean. */
export function cleanClientHints(raw: RawClientHints): ClientHints {
  const hints: ClientHints = {};
  const mobile = cleanMobile(raw.mobile);
  if (mobile !== undefined) hints.mobile = mobile;
  const platform = cleanText(raw.platform);
  if (platform) hints.platform = platform;
  const model = cleanText(raw.model);
  if (model) hints.model = model;
  const platformVersion = cleanText(raw.platformVersion);
  if (platformVersion && VERSION.test(platformVersion)) hints.platformVersion = platformVersion;
  return hints;
}

/** Client hints from request headers (`header(name)` returns the value or `undefined`). */
export function clientHintsFromHeaders(header: (name: string) => string | undefined): ClientHints {
  return cleanClientHints({
    mobile: header('Sec-CH-UA-Mobile'),
    platform: header('Sec-CH-UA-Platform'),
    model: header('Sec-CH-UA-Model'),
    platformVersion: header('Sec-CH-UA-Platform-Version'),
  });
}

const PLATFORM_FAMILY: Record<string, string> = {
  android: 'Android',
  ios: 'iOS',
  macos: 'Mac OS',
  windows: 'Windows',
  linux: 'Linux',
  'chrome os': 'Chromium OS',
  'chromium os': 'Chromium OS',
};

/** The hint's platform as ua-parser-js names the same OS (`macOS` → `Mac OS`), or `''`. */
export function platformFamily(platform: string | undefined): string {
  return PLATFORM_FAMILY[(platform ?? '').toLowerCase()] ?? '';
}

/**
 * The OS version a platform-version hint stands for. Windows reports its kernel release
 * (`15.0.0`): 13 and later is Windows 11, 1–12 is Windows 10 (Microsoft's documented mapping).
 * Elsewhere trailing `.0` parts go (`14.0.0` → `14`), as agents write versions.
 */
export function hintedOsVersion(family: string, platformVersion: string): string {
  if (family === 'Windows') {
    const major = Number.parseInt(platformVersion, 10);
    if (major >= 13) return '11';
    if (major >= 1) return '10';
    return '';
  }
  return platformVersion.replace(/(?:\.0)+$/, '');
}
