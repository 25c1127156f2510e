/**
 * Detects the visitor once per request (docs/device.md) and puts the device and the language on
 * the context for every later handler. Detection reads the User-Agent, the `Sec-CH-UA-*` client
 * hints and Accept-Language, so every response asks for the high-entropy hints (`Accept-CH`) and
 * says it varies on all of them (`Vary`), keeping shared caches from mixing visitors' pages.
 */
import type { MiddlewareHandler } from 'hono';
import {
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

// Detection and the language are pure functions of these headers, and most visits repeat a few
// agents: remember the latest results per isolate rather than parse the same headers again.
// A detected device is about 2 kB in the isolate's memory.
const detected = boundedCache<{ device: DeviceInfo; language: Language }>({
  maxBytes: CACHE_SHARES.devices,
  sizeOf: () => 2_000,
});

// Responses carry one of a handful of Vary values (none, the page's, an API's): merge each once.
const mergedVary = boundedCache<string>({ maxBytes: CACHE_SHARES.vary, sizeOf: stringBytes });

/** What detection found for one request's headers. */
interface Visit {
  device: DeviceInfo;
  language: Language;
}

/** The visitor a request's headers describe (`header` reads one header by name). */
function visitOf(header: (name: string) => string | undefined): Visit {
  const acceptLanguage = header('accept-language') ?? '';
  const input = {
    // Detection reads no further than these caps, so the key need not either.
    userAgent: (header('user-agent') ?? '').slice(0, MAX_USER_AGENT),
    referrer: (header('referer') ?? '').slice(0, MAX_REFERRER),
    acceptLanguage,
    hints: clientHintsFromHeaders(header),
  };
  // Every header detection reads, as one string: equal keys give equal devices.
  const key = JSON.stringify(input);
  let found = detected.get(key);
  if (!found) {
    // Frozen: every request with these headers shares this object, so none may change it. Cloned
    // first: a string cut from a header (the capped agent, the referrer) would otherwise keep the whole
    // header alive, far past the 2 kB the cache counts for it.
    found = { device: deepFreeze(structuredClone(detectDevice(input))), language: pickLanguage(acceptLanguage) };
    detected.set(key, found);
  }
  return found;
}

/** Detects the visitor's device and language once per request and negotiates client hints. */
export function visitor({
  requestHints = REQUESTED_HINTS,
  varyOn = ['User-Agent', 'Accept-Language', ...DETECTION_HINTS],
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
    const { device, language } = visitOf((name) => c.req.header(name));
    c.set('device', device);
    c.set('language', language);
    await next();
    // Set in place, as hono's secureHeaders does: c.header() would re-wrap the finished response.
    c.res.headers.set('Accept-CH', acceptCH);
    c.res.headers.set('Vary', varyFor(c.res.headers.get('vary')));
  };
}
