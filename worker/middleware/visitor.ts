/**
 * Detects the visitor once per request (docs/device.md) and puts the device and the language on
 * the context for every later handler. Detection reads the User-Agent, the `Sec-CH-UA-*` client
 * hints and Accept-Language, so every response asks for the high-entropy hints (`Accept-CH`) and
 * says it varies on all of them (`Vary`), keeping shared caches from mixing visitors' pages.
 */
import type { MiddlewareHandler } from 'hono';
import { MAX_ACCEPT_LANGUAGE, preferredLocale, primaryLanguage } from '../../shared/device/locale.ts';
import { type Verdict, verdictOf } from '../../shared/device/verdict.ts';
import {
  type ClientHints,
  clientHintsFromHeaders,
  DETECTION_HINTS,
  type DeviceInfo,
  detectDevice,
  MAX_REFERRER,
  MAX_USER_AGENT,
  REQUESTED_HINTS,
} from '../../shared/device.ts';
import type { Language } from '../../shared/texts.ts';
import { pickLanguage } from '../../shared/texts.ts';
import type { AppEnv } from '../env.ts';
import { boundedCache, CACHE_SHARES, stringBytes } from '../lib/bounded-cache.ts';
import { completeResponses } from './security-headers.ts';

/** `value` and every object inside it, frozen; returns `value`. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Options of `visitor()`; the defaults are what docs/device.md asks for. */
export interface VisitorOptions {
  /** Client hints asked for with `Accept-CH`. */
  requestHints?: readonly string[];
  /** Request headers detection reads; added to `Vary`. */
  varyOn?: readonly string[];
}

/** Adds `names` to a `Vary` value, once each (compared case-insensitively), keeping what is there. */
export function mergeVary(current: string | null, names: readonly string[]): string {
  const values = (current ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  if (values.includes('*')) return '*';
  const seen = new Set(values.map((value) => value.toLowerCase()));
  for (const name of names) {
    if (!seen.has(name.toLowerCase())) {
      values.push(name);
      seen.add(name.toLowerCase());
    }
  }
  return values.join(', ');
}

// Detection is a pure function of the agent and the client hints, and the language of Accept-Language:
// remember the latest results per isolate rather than parse the same headers again. The long tail of
// agents costs one parse each; the bound keeps it from growing memory. The referrer and the locale are
// laid over the remembered device per request, so neither splits the memo.
const detected = boundedCache<Detected>({
  maxBytes: CACHE_SHARES.devices,
  // The device's strings besides the agent (kept once, in the key), and its copies per locale.
  sizeOf: () => 600 + LOCALES_PER_DEVICE * 250,
});
const languages = boundedCache<Languages>({ maxBytes: CACHE_SHARES.languages, sizeOf: () => 200 });

// Responses carry one of a handful of Vary values (none, the page's, an API's): merge each once.
const mergedVary = boundedCache<string>({ maxBytes: CACHE_SHARES.vary, sizeOf: stringBytes });

/** A remembered detection: the device as the agent and hints describe it, and its verdict. */
interface Detected {
  device: DeviceInfo;
  verdict: Verdict;
  /** The device with a visitor's locale over it, by locale: made once, not per request. */
  byLocale: Map<string, DeviceInfo>;
}

/** The most locales a remembered device keeps a copy for; a visitor's agent rarely comes in more. */
const LOCALES_PER_DEVICE = 4;

/** What Accept-Language gives: the device's locale and language, and the page's language. */
interface Languages {
  locale: Pick<DeviceInfo, 'device_locale' | 'language'>;
  page: Language;
}

/** What detection found for one request's headers. */
interface Visit {
  device: DeviceInfo;
  verdict: Verdict;
  language: Language;
}

/**
 * A string of its own: a key cut from a header (or joined from such cuts) would keep the whole header
 * alive as long as the memo keeps the key. Only a stored key is copied; lookups use the cut as it is.
 */
function ownCopy(key: string): string {
  return structuredClone(key);
}

function detectedOf(userAgent: string, hints: ClientHints): Detected {
  // Every header detection reads, as one string: equal keys give equal devices.
  const key = `${hints.mobile ?? ''}\n${hints.platform ?? ''}\n${hints.platformVersion ?? ''}\n${hints.model ?? ''}\n${userAgent}`;
  let found = detected.get(key);
  if (!found) {
    // Frozen: every request with these headers shares this object, so none may change it. Cloned
    // first: a string cut from a header (the capped agent) would otherwise keep the whole header alive.
    const device = deepFreeze(structuredClone(detectDevice({ userAgent, hints })));
    found = { device, verdict: verdictOf(device), byLocale: new Map() };
    detected.set(ownCopy(key), found);
  }
  return found;
}

function languagesOf(acceptLanguage: string): Languages {
  let found = languages.get(acceptLanguage);
  if (!found) {
    const locale = preferredLocale(acceptLanguage);
    found = {
      locale: { device_locale: locale, language: primaryLanguage(locale) },
      page: pickLanguage(acceptLanguage),
    };
    languages.set(ownCopy(acceptLanguage), found);
  }
  return found;
}

/** The visitor a request's headers describe (`header` reads one header by name). */
function visitOf(header: (name: string) => string | undefined): Visit {
  // Detection reads no further than these caps, so the keys need not either.
  const userAgent = (header('user-agent') ?? '').slice(0, MAX_USER_AGENT);
  const referrer = (header('referer') ?? '').slice(0, MAX_REFERRER);
  const acceptLanguage = (header('accept-language') ?? '').slice(0, MAX_ACCEPT_LANGUAGE);
  const detected = detectedOf(userAgent, clientHintsFromHeaders(header));
  const { locale, page } = languagesOf(acceptLanguage);
  let device = detected.byLocale.get(locale.device_locale);
  if (!device) {
    device = Object.freeze({ ...detected.device, ...locale });
    if (detected.byLocale.size >= LOCALES_PER_DEVICE) detected.byLocale.clear();
    detected.byLocale.set(locale.device_locale, device);
  }
  return { device: referrer ? { ...device, referrer } : device, verdict: detected.verdict, language: page };
}

/** The request headers detection reads: every response varies on them. */
export const DETECTION_VARY: readonly string[] = ['User-Agent', 'Accept-Language', ...DETECTION_HINTS];
/** The `Accept-CH` value: the high-entropy hints detection asks for. */
export const ACCEPT_CH = REQUESTED_HINTS.join(', ');

/**
 * Detects the visitor's device and language once per request and negotiates client hints. A response
 * its handler completed (security-headers.ts `completeResponses`) already carries both headers.
 */
export function visitor({
  requestHints = REQUESTED_HINTS,
  varyOn = DETECTION_VARY,
}: VisitorOptions = {}): MiddlewareHandler<AppEnv> {
  const acceptCH = requestHints.join(', ');
  // The names merged are part of the key: another visitor() may merge others.
  const varyKey = `${varyOn.join()}\n`;
  const varyFor = (current: string | null): string => {
    const key = varyKey + (current ?? '');
    let value = mergedVary.get(key);
    if (value === undefined) {
      value = mergeVary(current, varyOn);
      mergedVary.set(key, value);
    }
    return value;
  };
  return async function visitorMiddleware(c, next) {
    const { device, verdict, language } = visitOf((name) => c.req.header(name));
    c.set('device', device);
    c.set('verdict', verdict);
    c.set('language', language);
    await next();
    if (completeResponses.has(c.res)) return;
    // Set in place: c.header() would re-wrap the finished response.
    c.res.headers.set('Accept-CH', acceptCH);
    c.res.headers.set('Vary', varyFor(c.res.headers.get('vary')));
  };
}
