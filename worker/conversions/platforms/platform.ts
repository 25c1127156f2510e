/**
 * What every platform is (docs/conversions.md#platforms): the names it gives Lander's events by
 * default, and the one request that tells it of an event. A platform builds no request for an event
 * it cannot be told of (Ocean Engine without its click's callback): that delivery is `skipped`.
 */
import type { ConversionPlatform, SettingsOf } from '../../../shared/conversions.ts';
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
}

/** The SHA-256 of `text` in lowercase hex: how the platforms that ask for hashed identifiers take them. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export const JSON_HEADERS = { 'content-type': 'application/json' } as const;
