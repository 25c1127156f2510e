/**
 * Detects the visitor once per request (PRODUCT.md §3) and puts the device and the language on
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
import { pickLanguage } from '../../shared/texts.ts';
import type { AppEnv } from '../env.ts';
import { createLru } from '../lib/lru.ts';

/** Options of `visitor()`; the defaults are what PRODUCT.md §3 asks for. */
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

/** Detects the visitor's device and language once per request and negotiates client hints. */
export function visitor({
  requestHints = REQUESTED_HINTS,
  varyOn = ['User-Agent', 'Accept-Language', ...DETECTION_HINTS],
}: VisitorOptions = {}): MiddlewareHandler<AppEnv> {
  const acceptCH = requestHints.join(', ');
  // Detection is a pure function of these headers and most visits repeat a few agents: remember the
  // latest results per isolate rather than parse the same agent again.
  const detected = createLru<DeviceInfo>({
    maxEntries: 2_000,
    maxSize: 8_000_000,
    sizeOf: (key) => 2 * key.length + 2_000,
  });
  return async function visitorMiddleware(c, next) {
    const acceptLanguage = c.req.header('accept-language') ?? '';
    const input = {
      // Detection reads no further than these caps, so the key need not either.
      userAgent: (c.req.header('user-agent') ?? '').slice(0, MAX_USER_AGENT),
      referrer: (c.req.header('referer') ?? '').slice(0, MAX_REFERRER),
      acceptLanguage,
      hints: clientHintsFromHeaders((name) => c.req.header(name)),
    };
    const key = JSON.stringify(input);
    let device = detected.get(key);
    if (!device) {
      device = detectDevice(input);
      detected.set(key, device);
    }
    c.set('device', structuredClone(device));
    c.set('deviceKey', key);
    c.set('language', pickLanguage(acceptLanguage));
    await next();
    // Set in place, as hono's secureHeaders does: c.header() would re-wrap the finished response.
    c.res.headers.set('Accept-CH', acceptCH);
    c.res.headers.set('Vary', mergeVary(c.res.headers.get('vary'), varyOn));
  };
}
