/**
 * The worker's Cron Trigger (wrangler.toml `[triggers]`, docs/webhooks.md#exports): once a day it
 * exports the previous UTC day's events to R2, forgets events and deliveries older than the 30 days
 * that "resend" and a late re-export may need, and signs the audit log's head (docs/operators.md#audit-log).
 */

import { DAY_MS, utcDay } from '../../shared/time-zone.ts';
import { signDailyHead } from '../audit/sign-head.ts';
import { forgetFraud } from '../fraud/store.ts';
import { countLoss } from '../reliability/losses.ts';
import { exportEveryApp } from './daily-export.ts';

/** Days events and deliveries are kept. */
export const KEEP_DAYS = 30;

/** Removes what is older than `KEEP_DAYS` before `now`. */
export async function forgetOld(db: D1Database, now: number): Promise<void> {
  const cutoff = now - KEEP_DAYS * DAY_MS;
  await db.batch([
    db.prepare('DELETE FROM webhook_events WHERE day < ?1').bind(utcDay(cutoff)),
    db.prepare('DELETE FROM webhook_deliveries WHERE at < ?1').bind(cutoff),
  ]);
}

/**
 * The `scheduled` handler: the previous day's export, the cleanup, then — whatever they did — the
 * audit log's signed head (it never throws: a head not signed is a counted loss). Throws so a failed
 * export shows as failed.
 */
export async function runScheduled(controller: ScheduledController, env: Env): Promise<void> {
  try {
    const day = utcDay(controller.scheduledTime - DAY_MS);
    const counts = await exportEveryApp(env, day).catch(async (error: unknown) => {
      // The day's events stay in D1 for KEEP_DAYS: re-running the export writes them (docs/reliability.md).
      await countLoss(env, 'exports', 1);
      throw error;
    });
    console.log('Exported', day, JSON.stringify(counts));
    await forgetOld(env.FUNNEL_DB, controller.scheduledTime);
    await forgetFraud(env.FUNNEL_DB, controller.scheduledTime);
  } finally {
    console.log('Audit head', await signDailyHead(env, controller.scheduledTime));
  }
}
