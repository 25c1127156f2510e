/**
 * Kuaishou (快手) conversion callback (docs/conversions.md#kuaishou): a GET of `track/activate` with the
 * click's `callback` (its `__CALLBACK__`, or the `callback` inside it when it came as a whole URL), the
 * event type and its time in milliseconds; a payment carries `purchase_amount` in yuan, which Kuaishou
 * requires of it: a payment without a value in renminbi is not sent, nor is a refund.
 */
import type { Platform } from './platform.ts';
import { fenOf, isRefund } from './platform.ts';

/** The event types that must carry `purchase_amount`. */
const PAID = new Set(['3', '12', '13', '14', '15']);

/** The callback token of a tap's `callback`, which a monitoring link may pass as the whole callback URL. */
function callbackOf(raw: string): string {
  if (!/^https?:\/\//.test(raw)) return raw;
  try {
    return new URL(raw).searchParams.get('callback') ?? raw;
  } catch {
    return raw;
  }
}

export const kuaishou: Platform<'kuaishou'> = {
  // 激活 1, 注册 2, 付费 3 in the callback's event types.
  defaults: { install: '1', register: '2', purchase: '3' },
  sendsOtherEvents: false,
  build({ event, name }) {
    const raw = event.ad?.callback;
    if (!raw || isRefund(event) || !/^\d{1,4}$/.test(name)) return null;
    const query = new URLSearchParams({ callback: callbackOf(raw), event_type: name, event_time: String(event.at) });
    const fen = fenOf(event);
    if (fen !== null) query.set('purchase_amount', (fen / 100).toFixed(2));
    else if (PAID.has(name)) return null;
    return { method: 'GET', url: `https://ad.partner.gifshow.com/track/activate?${query}`, headers: {} };
  },
};
