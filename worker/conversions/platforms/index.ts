/**
 * Every platform by its name (docs/conversions.md#platforms), and the request for one event to one
 * destination: its event name from the destination's map or the platform's defaults.
 */
import type { ConversionPlatform, SettingsOf } from '../../../shared/conversions.ts';
import type { ConversionEvent } from '../messages.ts';
import { baidu } from './baidu.ts';
import { ga4 } from './ga4.ts';
import { kuaishou } from './kuaishou.ts';
import { meta } from './meta.ts';
import { oceanEngine } from './oceanengine.ts';
import type { Platform, PlatformRequest } from './platform.ts';
import { postback } from './postback.ts';
import { snap } from './snap.ts';
import { tencent } from './tencent.ts';
import { tiktok } from './tiktok.ts';

export const PLATFORMS: { [P in ConversionPlatform]: Platform<P> } = {
  meta,
  tiktok,
  ga4,
  snap,
  oceanengine: oceanEngine,
  tencent,
  kuaishou,
  baidu,
  postback,
};

/** A destination as the request builder needs it. */
export interface Sendable<P extends ConversionPlatform = ConversionPlatform> {
  platform: P;
  settings: SettingsOf[P];
  token: string;
  events: Readonly<Record<string, string>>;
}

/** The platform's name of `event` for `destination`, or null when the destination does not send it. */
export function platformNameOf(destination: Sendable, event: Pick<ConversionEvent, 'name' | 'kind'>): string | null {
  const own = destination.events[event.name];
  if (own) return own;
  const platform = PLATFORMS[destination.platform];
  const named = platform.defaults[event.name];
  if (named) return named;
  return event.kind === 'event' && platform.sendsOtherEvents ? event.name : null;
}

/** How much older `event` is at `now` than `destination`'s platform takes (ms), or 0 when it takes it. */
export function tooOldBy(destination: Pick<Sendable, 'platform'>, event: ConversionEvent, now: number): number {
  const { maxAgeMs } = PLATFORMS[destination.platform] as Platform<ConversionPlatform>;
  return maxAgeMs === undefined ? 0 : Math.max(0, now - event.at - maxAgeMs);
}

/**
 * The request telling `destination` of `event` at `now`, or null when it is not to be told: a name
 * the platform does not take, or an event older than the platform takes.
 */
export async function requestFor(
  destination: Sendable,
  event: ConversionEvent,
  now = Date.now(),
): Promise<PlatformRequest | null> {
  const name = platformNameOf(destination, event);
  if (name === null) return null;
  const platform = PLATFORMS[destination.platform] as Platform<ConversionPlatform>;
  if (tooOldBy(destination, event, now) > 0) return null;
  return platform.build({ event, name, settings: destination.settings, token: destination.token });
}
