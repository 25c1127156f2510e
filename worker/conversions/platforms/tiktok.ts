/**
 * TikTok Events API 2.0 for app events (docs/conversions.md#tiktok): `event_source: "app"` under the
 * TikTok App ID, the app's package as `app.app_id`, the install's keyed hash as a SHA-256 `external_id`
 * (TikTok takes identifiers hashed), and a tap from a TikTok ad's `ttclid` as `ad.callback`.
 */
import type { Platform } from './platform.ts';
import { eventValue, isRefund, JSON_HEADERS, sha256Hex } from './platform.ts';

export const tiktok: Platform<'tiktok'> = {
  defaults: { install: 'InstallApp', open: 'LaunchAPP', register: 'Registration', purchase: 'Purchase' },
  sendsOtherEvents: true,
  async build({ event, name, settings, token }) {
    if (isRefund(event)) return null;
    const value = eventValue(event);
    const data: Record<string, unknown> = {
      event: name,
      event_time: Math.floor(event.at / 1000),
      event_id: event.id,
      app: { app_id: event.app },
      user: { external_id: await sha256Hex(event.install) },
    };
    if (event.ad?.ttclid) data.ad = { callback: event.ad.ttclid };
    if (value) data.properties = { value: value.major, currency: value.currency };
    return {
      method: 'POST',
      url: 'https://business-api.tiktok.com/open_api/v1.3/event/track/',
      headers: { ...JSON_HEADERS, 'access-token': token },
      body: JSON.stringify({ event_source: 'app', event_source_id: settings.tiktokAppId, data: [data] }),
    };
  },
};
