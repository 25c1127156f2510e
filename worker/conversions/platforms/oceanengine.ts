/**
 * Ocean Engine (巨量引擎) conversion callback (docs/conversions.md#ocean-engine): the conversion API
 * takes the click's own callback (`clickid` on a landing page, `callback` from a monitoring link) with
 * the event type and the time in milliseconds. An install whose tap carried neither is not Ocean
 * Engine's to hear of: no request.
 */
import type { Platform } from './platform.ts';
import { isRefund, JSON_HEADERS } from './platform.ts';

export const oceanEngine: Platform<'oceanengine'> = {
  // 激活, 注册, 付费 (activation, registration, payment) in the conversion API's event types.
  defaults: { install: 'active', register: 'active_register', purchase: 'active_pay' },
  sendsOtherEvents: false,
  build({ event, name }) {
    // The conversion API's section names no amount: a value is not sent, and a refund not at all.
    if (isRefund(event)) return null;
    const callback = event.ad?.clickid ?? event.ad?.callback;
    if (!callback) return null;
    return {
      method: 'POST',
      url: 'https://analytics.oceanengine.com/api/v2/conversion',
      headers: { ...JSON_HEADERS },
      body: JSON.stringify({ event_type: name, context: { ad: { callback } }, timestamp: event.at }),
    };
  },
};
