/**
 * Carrying out privacy requests (docs/privacy.md#requests-erasure-and-access): the privacy queue's
 * consumer takes a request, reads or erases its subject in every store (stores.ts), signs the receipt
 * and completes it, then queues a status callback per URL the request named, each signed and sent
 * with the webhooks' delivery rules (Standard Webhooks signing, URL checks, the retry schedule). The
 * hourly cron queues again every request not done within an hour, so a lost message still completes
 * well inside the 24 hours promised.
 */
import * as v from 'valibot';
import { appBase } from '../../shared/apps.ts';
import type { ReceiptBody } from '../../shared/privacy.ts';
import { settingsOf } from '../settings.ts';
import { attemptDelivery } from '../webhooks/deliver.ts';
import { MAX_ATTEMPTS, retryDelaySeconds } from '../webhooks/retry-policy.ts';
import { signReceipt } from './receipt.ts';
import { completeRequest, keysOf, type RequestRow, requestOf, startRequest, unfinished } from './requests.ts';
import { subjectPass } from './stores.ts';

/** The privacy queue's messages: a request to carry out, or one status callback of a completed one. */
export const PrivacyMessageSchema = v.variant('k', [
  v.object({ k: v.literal('request'), app: v.string(), id: v.string() }),
  v.object({ k: v.literal('callback'), app: v.string(), id: v.string(), url: v.string() }),
]);
export type PrivacyMessage = v.InferOutput<typeof PrivacyMessageSchema>;

/** Seconds before a request whose stores failed, or that waits for a key, is tried again. */
const REQUEST_RETRY_SECONDS = 60;
/** The hourly cron's schedule (wrangler.toml `[triggers]`). */
export const PRIVACY_CRON = '45 * * * *';
/** A request not done this long after it was received is queued again by the cron. */
export const REQUEUE_AFTER_MS = 60 * 60 * 1000;

/** What is kept on purpose, on every receipt. */
const KEPT = [
  {
    where: 'd1 audit_entries',
    why: "the audit log's entries are hash-chained and signed; a registered test device's entries keep its keyed hash",
  },
  {
    where: 'd1 funnel_daily, funnel_visitors',
    why:
      'counts per day and dimension name nobody but an inviter, whose invites stay counted under it; ' +
      'the day visitor hash is of an address and agent, not of any id',
  },
  {
    where: 'd1 fraud_installs, cohort_installs, cohort_daily, webhook_events; r2 exports',
    why:
      'the installs an invite link brought keep its inviter in their campaign: they are the records of ' +
      'those it brought, not the inviter’s',
  },
];

/** Carries out request `id` of `app`: answers whether it is done (or gone), false to try again. */
export async function carryOut(env: Env, app: string, id: string, now = Date.now()): Promise<boolean> {
  const row = await requestOf(env.FUNNEL_DB, app, id);
  if (!row || row.status === 'completed' || row.status === 'cancelled') return true;
  const keyText = settingsOf(env).privacyReceiptKey;
  const keys = keysOf(row);
  if (!keyText || !keys) return false;
  await startRequest(env.FUNNEL_DB, app, id);
  const pass = await subjectPass(env, app, keys, row.type === 'erasure', now);
  const body: ReceiptBody = {
    subject_request_id: row.id,
    subject_request_type: row.type,
    app,
    identity_type: row.identity_type,
    subject_digest: row.subject_digest,
    received_time: new Date(row.received_at).toISOString(),
    completed_time: new Date(now).toISOString(),
    lines: pass.lines,
    kept: KEPT,
  };
  await completeRequest(env.FUNNEL_DB, row, await signReceipt(keyText, body), now);
  const urls = JSON.parse(row.callback_urls) as string[];
  if (urls.length > 0)
    await env.PRIVACY_QUEUE.sendBatch(
      urls.map((url) => ({ body: { k: 'callback', app, id, url } satisfies PrivacyMessage })),
    );
  return true;
}

/**
 * The OpenDSR status callback's body of a completed request; an access request's `results_url` is its
 * data's path on the shared host, as `GET /api/privacy/requests/<id>` names it there.
 */
function callbackBody(row: RequestRow, url: string): string {
  return JSON.stringify({
    subject_request_id: row.id,
    request_status: row.status,
    expected_completion_time: new Date(row.expected_at).toISOString(),
    status_callback_url: url,
    results_url: row.type === 'access' ? `${appBase(row.app)}/api/privacy/requests/${row.id}/data` : null,
  });
}

/** Sends one status callback: true when delivered or refused for good; else the seconds until the next try. */
async function sendCallback(env: Env, message: Message, app: string, id: string, url: string): Promise<true | number> {
  const row = await requestOf(env.FUNNEL_DB, app, id);
  if (!row?.callback_secret) return true;
  const { env: mode, webhookResolver: resolver } = settingsOf(env);
  const target = {
    url,
    secret: row.callback_secret,
    id: `msg_privacy_${id}_${row.status}`,
    body: callbackBody(row, url),
  };
  const result = await attemptDelivery(target, mode, { resolver });
  if (result.verdict !== 'retry' || message.attempts >= MAX_ATTEMPTS) return true;
  return retryDelaySeconds(message.attempts, result.retryAfter);
}

/** The privacy queue's handler: each message acknowledged when done, else retried on its own. */
export async function consumePrivacyBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const parsed = v.safeParse(PrivacyMessageSchema, message.body);
    if (!parsed.success) {
      console.error('Privacy message dropped', v.summarize(parsed.issues));
      message.ack();
      continue;
    }
    const { app, id } = parsed.output;
    try {
      if (parsed.output.k === 'request') {
        if (await carryOut(env, app, id)) message.ack();
        else message.retry({ delaySeconds: REQUEST_RETRY_SECONDS });
      } else {
        const done = await sendCallback(env, message, app, id, parsed.output.url);
        if (done === true) message.ack();
        else message.retry({ delaySeconds: done });
      }
    } catch (error) {
      console.error('Privacy request not carried out', error instanceof Error ? error.message : String(error));
      message.retry({ delaySeconds: REQUEST_RETRY_SECONDS });
    }
  }
}

/** The hourly cron: every request received over an hour ago and not done is queued again. */
export async function requeueUnfinished(env: Env, now: number): Promise<number> {
  const due = await unfinished(env.FUNNEL_DB, now - REQUEUE_AFTER_MS);
  for (let at = 0; at < due.length; at += 100) {
    const part = due.slice(at, at + 100);
    await env.PRIVACY_QUEUE.sendBatch(
      part.map(({ app, id }) => ({ body: { k: 'request', app, id } satisfies PrivacyMessage })),
    );
  }
  return due.length;
}
