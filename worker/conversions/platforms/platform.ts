/**
 * What every platform is (docs/conversions.md#platforms): the names it gives Lander's events by
 * default, and the one request that tells it of an event. A platform builds no request for an event
 * it cannot be told of (Ocean Engine without its click's callback): that delivery is `skipped`.
 */
import type { ConversionPlatform, SettingsOf } from '../../../shared/conversions.ts';
import { exponentOf, majorText } from '../../../shared/money.ts';
import type { ConversionEvent } from '../messages.ts';

/** The HTTP request a platform is sent; `url` is its own host's (the fake's in tests). */
export interface PlatformRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a platform builds a request from. */
export interface PlatformInput<P extends ConversionPlatform> {
  event: ConversionEvent;
  /** The platform's name of the event (the destination's map, else the default). */
  name: string;
  settings: SettingsOf[P];
  token: string;
}

export interface Platform<P extends ConversionPlatform> {
  /** Lander's event → the platform's event name; an event not here is sent under its own name or not at all. */
  defaults: Readonly<Record<string, string>>;
  /** Whether an app event whose name is in neither map is sent under its own name. */
  sendsOtherEvents: boolean;
  /** The request for one event, or null when this event cannot be sent to the platform. */
  build(input: PlatformInput<P>): Promise<PlatformRequest | null> | PlatformRequest | null;
  /**
   * How old an event may be when it is sent (ms), where the platform's document says it refuses an
   * older one: an older event is not sent (`skipped`), as the platform would refuse it.
   */
  maxAgeMs?: number;
}

/** The SHA-256 of `text` in lowercase hex: how the platforms that ask for hashed identifiers take them. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** An app event's value as the platforms take it (docs/conversions.md#values). */
export interface EventValue {
  currency: string;
  /** Whole minor units; negative for a refund. */
  amount: number;
  /** The amount in the major unit as decimal text: 999 USD → "9.99", 500 JPY → "500". */
  text: string;
  /** The same as a JSON number (9.99). */
  major: number;
}

/** The value `event` carries, or null when it names none. */
export function eventValue(event: ConversionEvent): EventValue | null {
  if (event.currency === undefined || event.amount === undefined) return null;
  const exponent = exponentOf(event.currency);
  if (exponent === null) return null;
  const text = majorText(event.amount, exponent);
  return { currency: event.currency, amount: event.amount, text, major: Number(text) };
}

/** Whether `event` is a refund (a negative value), which no ad platform's document takes: not sent to them. */
export const isRefund = (event: ConversionEvent): boolean => (event.amount ?? 0) < 0;

/** The value in fen (分), for the platforms that take renminbi only; null for any other currency. */
export const fenOf = (event: ConversionEvent): number | null =>
  event.currency === 'CNY' && event.amount !== undefined ? event.amount : null;

/** `extinfo` (Meta's and Snap's app data): 16 places, each required and in order; Lander knows the version and the package. */
export function extinfo(platform: string | null, app: string): string[] {
  const places = new Array<string>(16).fill('');
  places[0] = platform === 'ios' ? 'i2' : 'a2';
  places[1] = app;
  return places;
}
