/**
 * Snap Conversions API for app events (docs/conversions.md#snap): one event per request to the Snap
 * App ID's `/events`, `action_source: "MOBILE_APP"`, the app data of its example (`extinfo` as Meta's),
 * the install's keyed hash as a SHA-256 `external_id`, a tap from a Snap ad's `ScCid` as `sc_click_id`,
 * and an app event's value in `custom_data`.
 */
import type { Platform } from './platform.ts';
import { eventValue, extinfo, isRefund, JSON_HEADERS, sha256Hex } from './platform.ts';

export const snap: Platform<'snap'> = {
  defaults: { install: 'APP_INSTALL', open: 'APP_OPEN', register: 'SIGN_UP', purchase: 'PURCHASE' },
  // Snap takes its own event names only (its custom events are CUSTOM_EVENT_1 to 5): others when mapped.
  sendsOtherEvents: false,
  // "Conversions API" (Introduction): an event's timestamp may be at most 37 days back to be reported.
  maxAgeMs: 37 * 86_400_000,
  async build({ event, name, settings, token }) {
    if (isRefund(event)) return null;
    const value = eventValue(event);
    const user: Record<string, unknown> = { external_id: [await sha256Hex(event.install)] };
    if (event.ad?.ScCid) user.sc_click_id = event.ad.ScCid;
    const data: Record<string, unknown> = {
      event_name: name,
      event_time: Math.floor(event.at / 1000),
      event_id: event.id,
      action_source: 'MOBILE_APP',
      // Sent only where consent allowed it (send-facts.ts): tracking is on for this install.
      app_data: { advertiser_tracking_enabled: 1, extinfo: extinfo(event.platform, event.app) },
      user_data: user,
    };
    if (value) data.custom_data = { value: value.text, currency: value.currency };
    // "Using the API": the token is the address's `access_token`; no error or log holds an address.
    const query = new URLSearchParams({ access_token: token });
    return {
      method: 'POST',
      url: `https://tr.snapchat.com/v3/${settings.snapAppId}/events?${query}`,
      headers: { ...JSON_HEADERS },
      body: JSON.stringify({ data: [data] }),
    };
  },
};
