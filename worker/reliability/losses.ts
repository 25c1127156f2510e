/**
 * The loss counter (docs/reliability.md): what a fault made the worker give up on after its retries
 * — funnel events a queue refused or its consumer could not write after its retries, clicks no Durable Object would record, webhook events not queued,
 * a daily export R2 or D1 failed, an audit log's daily head not signed (no key, or R2 down), a short link's rule
 * that failed when it ran (passed over, docs/smart-links.md) — and what the funnel left out on purpose: a malformed queue
 * message, an install's opens and app events past their daily bounds (docs/operators.md#bounds);
 * counted per UTC day in D1 (`losses`, migrations/0006_losses.sql), read at `GET /api/losses`.
 * Counting never throws: when D1 is down too, the loss is logged with its count instead.
 */

import * as v from 'valibot';
import { DAY_MS, utcDay } from '../../shared/time-zone.ts';

/** What can be lost, each named where it is given up on. */
export const LOSS_KINDS = [
  'funnel-events',
  'funnel-dead-letters',
  'webhook-events',
  'clicks',
  'install-catch-up',
  'exports',
  'funnel-malformed',
  'events-over-cap',
  'opens-over-cap',
  'audit-heads',
  'rule-errors',
] as const;
export type LossKind = (typeof LOSS_KINDS)[number];

/** What `GET /api/losses` answers (routes.ts), for the OpenAPI document. */
export const LossesSchema = v.strictObject({
  days: v.number(),
  lost: v.strictObject(
    Object.fromEntries(LOSS_KINDS.map((kind) => [kind, v.number()])) as Record<LossKind, v.NumberSchema<undefined>>,
  ),
});

/** Adds `n` to today's count of `what`; logs instead when D1 cannot take it. */
export async function countLoss(env: Env, what: LossKind, n: number, now = Date.now()): Promise<void> {
  if (n <= 0) return;
  console.error(`Lost ${n} ${what}`);
  try {
    await env.FUNNEL_DB.prepare(
      'INSERT INTO losses (day, what, n) VALUES (?, ?, ?) ON CONFLICT (day, what) DO UPDATE SET n = n + excluded.n',
    )
      .bind(utcDay(now), what, n)
      .run();
  } catch (error) {
    console.error('Loss not counted', what, n, error instanceof Error ? error.message : String(error));
  }
}

/** The counts of the last `days` UTC days, by kind (every kind present, 0 when nothing was lost). */
export async function readLosses(env: Env, days: number, now = Date.now()): Promise<Record<LossKind, number>> {
  const from = utcDay(now - (days - 1) * DAY_MS);
  const { results } = await env.FUNNEL_DB.prepare('SELECT what, SUM(n) AS n FROM losses WHERE day >= ? GROUP BY what')
    .bind(from)
    .all<{ what: string; n: number }>();
  const counts = Object.fromEntries(LOSS_KINDS.map((kind) => [kind, 0])) as Record<LossKind, number>;
  for (const row of results)
    if ((LOSS_KINDS as readonly string[]).includes(row.what)) counts[row.what as LossKind] = row.n;
  return counts;
}
