/**
 * The worker's Cron Trigger (wrangler.toml `[triggers]`, docs/webhooks.md#exports): once a day it
 * exports the previous UTC day's events to R2, forgets what each store keeps past its retention
 * (forget-old.ts, docs/privacy.md#retention), and signs the audit log's head (docs/operators.md#audit-log).
 */

import { DAY_MS, utcDay } from '../../shared/time-zone.ts';
import { signDailyHead } from '../audit/sign-head.ts';
import { countLoss } from '../reliability/losses.ts';
import { exportEveryApp } from './daily-export.ts';
import { forgetOld } from './forget-old.ts';

/**
 * The `scheduled` handler: the previous day's export, the cleanup, then — whatever they did — the
 * audit log's signed head (it never throws: a head not signed is a counted loss). Throws so a failed
 * export shows as failed.
 */
export async function runScheduled(controller: ScheduledController, env: Env): Promise<void> {
  try {
    const day = utcDay(controller.scheduledTime - DAY_MS);
    const counts = await exportEveryApp(env, day).catch(async (error: unknown) => {
      // The day's events stay in D1 for RETENTION.webhooks days: re-running the export writes them (docs/reliability.md).
      await countLoss(env, 'exports', 1);
      throw error;
    });
    console.log('Exported', day, JSON.stringify(counts));
    await forgetOld(env, controller.scheduledTime);
  } finally {
    console.log('Audit head', await signDailyHead(env, controller.scheduledTime));
  }
}
