/**
 * "Send test event" (docs/conversions.md#admin-api): one `install` made up for the destination — an
 * install hash and an event id of their own, every ad click parameter filled with `test` — sent now,
 * outside the queue, and written to the destination's log like any attempt, so the operator sees
 * what the platform answered. Ocean Engine gets its callback `test`, which it answers as it will.
 */
import { AD_CLICK_PARAM_NAMES } from '../../shared/ad-clicks.ts';
import { toBase64Url } from '../../shared/base64url.ts';
import type { ConversionTestResult } from '../../shared/conversions.ts';
import { KEPT_ATTEMPTS } from './deliver.ts';
import type { StoredDestination } from './destinations.ts';
import type { ConversionEvent } from './messages.ts';
import { requestFor } from './platforms/index.ts';
import { sendRequest } from './send-request.ts';

const LOG =
  'INSERT INTO conversion_attempts (destination_id, event_id, name, attempt, status, outcome, latency_ms, error, at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)';
const TRIM =
  'DELETE FROM conversion_attempts WHERE destination_id = ?1 AND seq <= (SELECT seq FROM conversion_attempts WHERE destination_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2)';

/** The made-up install a test sends. */
export function testConversion(now = Date.now()): ConversionEvent {
  return {
    id: `test_${toBase64Url(crypto.getRandomValues(new Uint8Array(12)))}`,
    kind: 'install',
    name: 'install',
    at: now,
    app: 'test.lander.app',
    platform: 'android',
    install: `test_${toBase64Url(crypto.getRandomValues(new Uint8Array(12)))}`,
    ad: Object.fromEntries(AD_CLICK_PARAM_NAMES.map((param) => [param, 'test'])),
    clickedAt: now,
    country: '',
  };
}

/** Sends a test install to `destination` now and logs the attempt; answers what it got. */
export async function testEvent(env: Env, destination: StoredDestination): Promise<ConversionTestResult> {
  const event = testConversion();
  const request = await requestFor(destination, event);
  const result = request
    ? await sendRequest(env, destination.platform, request)
    : { verdict: 'final' as const, status: 0, latencyMs: 0, error: 'this destination sends no install' };
  const delivered = result.verdict === 'delivered';
  const outcome = delivered ? 'delivered' : 'failed';
  const db = env.FUNNEL_DB;
  await db.batch([
    db
      .prepare(LOG)
      .bind(destination.id, event.id, 'test', result.status, outcome, result.latencyMs, result.error, Date.now()),
    db.prepare(TRIM).bind(destination.id, KEPT_ATTEMPTS),
  ]);
  return { delivered, status: result.status, latencyMs: result.latencyMs, error: result.error };
}
