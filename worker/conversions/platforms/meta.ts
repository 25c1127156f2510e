/**
 * Meta Conversions API for App Events (docs/conversions.md#meta): one server event per request to the
 * dataset's `/events` edge, `action_source: "app"`, with the app data the API requires for app events
 * (`advertiser_tracking_enabled`, `application_tracking_enabled`, `extinfo`). The install's keyed hash
 * is its `anon_id`; a tap from a Meta ad adds `fbc`, formatted as Meta documents it.
 */
import type { Platform } from './platform.ts';
import { eventValue, extinfo, isRefund, JSON_HEADERS } from './platform.ts';

/** The Graph API version requests go to. */
export const META_GRAPH_VERSION = 'v21.0';

export const meta: Platform<'meta'> = {
  defaults: {
    install: 'MobileAppInstall',
    open: 'ActivateApp',
    register: 'CompleteRegistration',
    purchase: 'Purchase',
  },
  sendsOtherEvents: true,
  // "Server Event Parameters", event_time: up to 7 days before it is sent, else the request is refused.
  maxAgeMs: 7 * 86_400_000,
  build({ event, name, settings, token }) {
    if (isRefund(event)) return null;
    const value = eventValue(event);
    const user: Record<string, string> = { anon_id: event.install };
    // fbc is `fb.1.<click time in ms>.<fbclid>` (Meta's "fbc" customer information parameter).
    if (event.ad?.fbclid) user.fbc = `fb.1.${event.clickedAt ?? event.at}.${event.ad.fbclid}`;
    const body = {
      data: [
        {
          event_name: name,
          event_time: Math.floor(event.at / 1000),
          event_id: event.id,
          action_source: 'app',
          user_data: user,
          // Sent only where consent allowed it (send-facts.ts): tracking is on for this install.
          app_data: {
            advertiser_tracking_enabled: 1,
            application_tracking_enabled: 1,
            extinfo: extinfo(event.platform, event.app),
          },
          // "Custom Data Parameters": the value in the major unit and its ISO 4217 code.
          ...(value ? { custom_data: { value: value.major, currency: value.currency } } : {}),
        },
      ],
      // In the body, not the address: an address may end up in a log, a body never does.
      access_token: token,
    };
    return {
      method: 'POST',
      url: `https://graph.facebook.com/${META_GRAPH_VERSION}/${settings.datasetId}/events`,
      headers: { ...JSON_HEADERS },
      body: JSON.stringify(body),
    };
  },
};
