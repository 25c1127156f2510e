/**
 * Detects the device and the language once per request (docs/device.md) and puts them on the context
 * for every later handler. worker/index.ts mounts it only where they are read: `/api/device`,
 * `/api/trace`, `/api/a/*` and the pages; no other call parses the agent. Detection reads the
 * User-Agent, the `Sec-CH-UA-*` client hints and Accept-Language, so every response asks for the
 * high-entropy hints (`Accept-CH`) and says it varies on all of them (`Vary`; both written in
 * lib/headers.ts), keeping shared caches from mixing pages.
 */
import type { MiddlewareHandler } from 'hono';
import { MAX_ACCEPT_LANGUAGE, preferredLocale, primaryLanguage } from '../../shared/device/locale.ts';
import { type Verdict, verdictOf } from '../../shared/device/verdict.ts';
import {
  type ClientHints,
  clientHintsFromHeaders,
  type DeviceInfo,
  detectDevice,
  MAX_REFERRER,
  MAX_USER_AGENT,
} from '../../shared/device.ts';
import type { Language } from '../../shared/texts.ts';
import { pickLanguage } from '../../shared/texts.ts';
import type { AppEnv } from '../env.ts';
import { boundedCache, CACHE_SHARES } from '../lib/bounded-cache.ts';

/** `value` and every object inside it, frozen; returns `value`. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
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

/** A remembered detection: the device as the agent and hints describe it, and its verdict. */
interface Detected {
  device: DeviceInfo;
  verdict: Verdict;
  /** The device with a visitor's locale over it, by locale: made once, not per request. */
  byLocale: Map<string, DeviceInfo>;
}

/**
 * The most locales a remembered device keeps a copy for. A popular agent comes in many languages; past
 * the bound the copies are dropped together, so an agent seen in more languages than this, in turn,
 * gets a new copy on every request (at 4, the bench's five-language mix did).
 */
const LOCALES_PER_DEVICE = 6;

/** What Accept-Language gives: the device's locale and language, and the page's language. */
interface Languages {
  locale: Pick<DeviceInfo, 'device_locale' | 'language'>;
  page: Language;
}

/** What detection found for one request's headers. */
interface Detection {
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

/** What a request's headers describe (`header` reads one header by name). */
function detectionOf(header: (name: string) => string | undefined): Detection {
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

/** How many requests this isolate detected a device for: what tests count a call that reads none by. */
let requestsDetected = 0;

export function detectedRequests(): number {
  return requestsDetected;
}

/**
 * Detects the device and language once per request and puts them on the context for every later
 * handler. The headers that negotiate the hints and vary on them are lib/headers.ts's.
 */
export function deviceDetection(): MiddlewareHandler<AppEnv> {
  return async function deviceDetectionMiddleware(c, next) {
    requestsDetected += 1;
    const { device, verdict, language } = detectionOf((name) => c.req.header(name));
    c.set('device', device);
    c.set('verdict', verdict);
    c.set('language', language);
    await next();
  };
}
