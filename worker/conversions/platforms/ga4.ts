/**
 * Google Analytics 4 Measurement Protocol (docs/conversions.md#ga4): one event per request to
 * `/mp/collect` of the data stream, the install's keyed hash as its `client_id`. GA4 refuses its
 * reserved names (`first_open`, `session_start`, …), so an install and an open go under names of
 * their own; an app event's name becomes a GA4 name (letters, digits, `_`, starting with a letter).
 */
import type { Platform } from './platform.ts';
import { eventValue, isRefund, JSON_HEADERS } from './platform.ts';

/** A GA4 event name from an app event's (`.` and `-` become `_`; a leading digit gets `e_`). */
export const ga4Name = (name: string): string => {
  const plain = name.replace(/[.-]/g, '_');
  return (/^[a-z]/.test(plain) ? plain : `e_${plain}`).slice(0, 40);
};

export const ga4: Platform<'ga4'> = {
  defaults: { install: 'lander_install', open: 'lander_open', register: 'sign_up', purchase: 'purchase' },
  sendsOtherEvents: true,
  // "Measurement Protocol use cases": timestamp_micros at most 72 hours before the request.
  maxAgeMs: 72 * 3_600_000,
  build({ event, name, settings, token }) {
    if (isRefund(event)) return null;
    const value = eventValue(event);
    const query = new URLSearchParams({ measurement_id: settings.measurementId, api_secret: token });
    const params: Record<string, string | number> = { lander_event_id: event.id, engagement_time_msec: 1 };
    if (event.platform) params.platform = event.platform;
    // "Send events": `value` with its `currency`, which GA4 needs for a value to count.
    if (value) Object.assign(params, { value: value.major, currency: value.currency });
    return {
      method: 'POST',
      url: `https://www.google-analytics.com/mp/collect?${query}`,
      headers: { ...JSON_HEADERS },
      body: JSON.stringify({
        client_id: event.install,
        timestamp_micros: event.at * 1000,
        events: [{ name: ga4Name(name), params }],
      }),
    };
  },
};
