/**
 * A batch of events, added up in memory before anything reaches D1 (docs/operators.md): one count
 * per day, dimension combination and metric, one row per visitor, day and combination, and the
 * events' ids. However many events a batch holds, D1 then sees a fixed number of statements.
 */

import type { Dimensions } from '../facts.ts';
import { clamp, heldValue, MAX_REVENUE_SUM, MAX_VALUE_SUM } from './bounds.ts';
import { type FunnelMessage, metricOf } from './events.ts';

/** The dimensions in their D1 column order, with their column names. */
export const DIMENSION_COLUMNS = [
  ['channel', 'channel'],
  ['inviter', 'inviter'],
  ['link', 'link'],
  ['variant', 'variant'],
  ['os', 'os'],
  ['inapp', 'inapp'],
  ['country', 'country'],
  ['lang', 'lang'],
  ['plainChannel', 'plain_channel'],
  ['plainInviter', 'plain_inviter'],
] as const satisfies readonly (readonly [keyof Dimensions, string])[];

/** One funnel_daily row's increment: `[day, …dimensions, metric, count, valueSum]`. */
export type DailyIncrement = (string | number)[];
/** One funnel_revenue row's increment: `[day, …dimensions, currency, events, amount, refunds]`. */
export type RevenueIncrement = (string | number)[];
/** One funnel_visitors row: `[day, visitor, …dimensions]`. */
export type VisitorRow = string[];

export interface Rollup {
  /** Ids of the events counted, each once. */
  ids: string[];
  daily: DailyIncrement[];
  /** The app events with a currency, added up per day, dimensions and currency (docs/operators.md#revenue). */
  revenue: RevenueIncrement[];
  visitors: VisitorRow[];
}

const dimensionValues = (dims: Dimensions): string[] => DIMENSION_COLUMNS.map(([name]) => dims[name]);

/** Adds up `messages`; an id seen twice counts once. */
export function rollUp(messages: readonly FunnelMessage[]): Rollup {
  const ids = new Set<string>();
  const daily = new Map<string, { key: string[]; count: number; valueSum: number }>();
  const revenue = new Map<string, { key: string[]; events: number; amount: number; refunds: number }>();
  const visitors = new Map<string, string[]>();
  for (const message of messages) {
    if (ids.has(message.id)) continue;
    ids.add(message.id);
    const dims = dimensionValues(message.dims);
    const key = [message.day, ...dims, metricOf(message.event)];
    const id = JSON.stringify(key);
    const row = daily.get(id) ?? { key, count: 0, valueSum: 0 };
    row.count += 1;
    // Each value and the sum held within their bounds (bounds.ts): a sum past the largest double is
    // Infinity, which D1 refuses, and with it every event of the batch.
    // A value with a currency is revenue, counted per currency in minor units rather than in the sum of values.
    const { event } = message;
    if (event.type === 'event' && event.currency !== undefined && event.amount !== undefined) {
      const moneyKey = [message.day, ...dims, event.currency];
      const moneyId = JSON.stringify(moneyKey);
      const sum = revenue.get(moneyId) ?? { key: moneyKey, events: 0, amount: 0, refunds: 0 };
      const amount = clamp(event.amount, MAX_REVENUE_SUM);
      sum.events += 1;
      sum.amount = clamp(sum.amount + amount, MAX_REVENUE_SUM);
      if (amount < 0) sum.refunds = clamp(sum.refunds - amount, MAX_REVENUE_SUM);
      revenue.set(moneyId, sum);
    } else if (event.type === 'event') row.valueSum = clamp(row.valueSum + heldValue(event.value), MAX_VALUE_SUM);
    daily.set(id, row);
    // Only a view makes a visitor (docs/operators.md#visitors): a tap queued with a visitor before
    // that rule would be a visitor without a view in its row.
    if (message.visitor && message.event.type === 'view') {
      const visitor = [message.day, message.visitor, ...dims];
      visitors.set(JSON.stringify(visitor), visitor);
    }
  }
  return {
    ids: [...ids],
    daily: [...daily.values()].map(({ key, count, valueSum }): DailyIncrement => [...key, count, valueSum]),
    revenue: [...revenue.values()].map(
      ({ key, events, amount, refunds }): RevenueIncrement => [...key, events, amount, refunds],
    ),
    visitors: [...visitors.values()],
  };
}
