/**
 * The funnel queue's consumer (docs/operators.md): validates a batch, decides what of it counts
 * (admission.ts: the bounds per install and per app), adds it up (rollup.ts) and writes it to D1 in
 * one transaction, after one read, whatever the batch's size.
 *
 * Idempotent: every event's id is recorded in the same transaction as its counts, and ids already
 * recorded are left out, so a batch the queue delivers again (after a failure, or twice) counts once.
 * Two deliveries racing each other both try to record the same id; the second transaction fails on
 * it as a whole and is retried, and then finds the ids taken.
 *
 * One message never holds back the others: when the batch's transaction fails and D1 still answers,
 * the messages are written one by one, each acknowledged when written and retried alone when not;
 * after the queue's `max_retries` such a message lands in the dead-letter queue alone
 * (dead-letters.ts, wrangler.toml). When D1 does not answer, every message is retried. A malformed
 * message never becomes valid: it is acknowledged and counted as lost (`funnel-malformed`).
 */
import * as v from 'valibot';
import { DAY_MS, utcDay } from '../../shared/time-zone.ts';
import { countLoss } from '../reliability/losses.ts';
import { type AdmissionRows, admissionReads, admissionWrites, admit } from './admission.ts';
import { MAX_REVENUE_SUM, SQL_MAX_VALUE_SUM } from './bounds.ts';
import { cohortRead, cohortWrites, foldBatch } from './cohorts.ts';
import { appOfMessage, type FunnelMessage, FunnelMessageSchema } from './events.ts';
import { DIMENSION_COLUMNS, rollUp } from './rollup.ts';

/** How long ids are kept: longer than the queue keeps an undelivered message (14 days at most). */
const ID_DAYS = 30;
/** Seconds before a message that was not written is delivered again. */
const RETRY_DELAY_SECONDS = 10;

const DIMS = DIMENSION_COLUMNS.map(([, column]) => column);
const field = (at: number): string => `json_extract(value, '$[${at}]')`;
const fields = (count: number): string => Array.from({ length: count }, (_, at) => field(at)).join(', ');

const SEEN = 'SELECT id FROM funnel_messages WHERE app = ?2 AND id IN (SELECT value FROM json_each(?1))';
// Ids are dated by when they were counted, not by their event's day: the queue may deliver an old event again.
const RECORD_IDS = 'INSERT INTO funnel_messages (app, id, day) SELECT ?3, value, ?2 FROM json_each(?1)';
const DAILY_KEY = ['app', 'day', ...DIMS, 'metric'].join(', ');
// The stored sum is held within ±MAX_VALUE_SUM however many batches add to it (bounds.ts).
const ADD_DAILY =
  `INSERT INTO funnel_daily (${DAILY_KEY}, count, value_sum) SELECT ?2, ${fields(DIMS.length + 4)} ` +
  `FROM json_each(?1) WHERE true ON CONFLICT (${DAILY_KEY}) DO UPDATE SET count = count + excluded.count, ` +
  `value_sum = max(-${SQL_MAX_VALUE_SUM}, min(${SQL_MAX_VALUE_SUM}, value_sum + excluded.value_sum))`;
const REVENUE_KEY = ['app', 'day', ...DIMS, 'currency'].join(', ');
const heldSum = (sum: string): string => `max(-${MAX_REVENUE_SUM}, min(${MAX_REVENUE_SUM}, ${sum}))`;
// Integers, each sum held within ±MAX_REVENUE_SUM (bounds.ts): exact to the minor unit, never an overflow.
const ADD_REVENUE =
  `INSERT INTO funnel_revenue (${REVENUE_KEY}, events, amount, refunds) SELECT ?2, ${fields(DIMS.length + 5)} ` +
  `FROM json_each(?1) WHERE true ON CONFLICT (${REVENUE_KEY}) DO UPDATE SET events = events + excluded.events, ` +
  `amount = ${heldSum('amount + excluded.amount')}, refunds = ${heldSum('refunds + excluded.refunds')}`;
const ADD_VISITORS = `INSERT OR IGNORE INTO funnel_visitors (app, day, visitor, ${DIMS.join(', ')}) SELECT ?2, ${fields(
  DIMS.length + 2,
)} FROM json_each(?1)`;
const FORGET_IDS = 'DELETE FROM funnel_messages WHERE day < ?1';

/** `messages` with each id once, the first of each kept, in their order. */
function eachIdOnce(messages: readonly FunnelMessage[]): FunnelMessage[] {
  const ids = new Set<string>();
  return messages.filter((message) => !ids.has(message.id) && ids.add(message.id));
}

/** Counts `messages` in `db` unless already counted; throws when D1 does. `now` dates the id cleanup. */
export async function writeRollup(db: D1Database, messages: readonly FunnelMessage[], now = Date.now()): Promise<void> {
  const byApp = new Map<string, FunnelMessage[]>();
  for (const message of messages) {
    const app = appOfMessage(message);
    byApp.set(app, [...(byApp.get(app) ?? []), message]);
  }
  for (const [app, group] of byApp) await writeAppRollup(db, app, group, now);
}

/** `writeRollup` for the messages of one app: every row it reads and writes is that app's. */
async function writeAppRollup(
  db: D1Database,
  app: string,
  messages: readonly FunnelMessage[],
  now: number,
): Promise<void> {
  const unique = eachIdOnce(messages);
  if (unique.length === 0) return;
  const ids = unique.map((message) => message.id);
  const reads = admissionReads(db, app, unique);
  // Cohorts (cohorts.ts): the rows of the batch's installs, read with the rest.
  const members = cohortRead(db, app, unique);
  const [seen, ...read] = await db.batch<Record<string, unknown>>([
    db.prepare(SEEN).bind(JSON.stringify(ids), app),
    ...reads.map((item) => item.statement),
    ...(members ? [members] : []),
  ]);
  const counted = new Set((seen?.results ?? []).map((row) => String(row.id)));
  const fresh = unique.filter((message) => !counted.has(message.id));
  if (fresh.length === 0) return;
  const rows: AdmissionRows = Object.fromEntries(reads.map((item, at) => [item.what, read[at]?.results ?? []]));
  const admission = admit(fresh, rows);
  const rollup = rollUp(admission.counted);
  const cohorts = foldBatch(admission.counted, members ? (read[reads.length]?.results ?? []) : [], now);
  await db.batch([
    // Every fresh id, also those over a bound: a redelivery is decided once, like the counts.
    db.prepare(RECORD_IDS).bind(JSON.stringify(fresh.map((message) => message.id)), utcDay(now), app),
    db.prepare(ADD_DAILY).bind(JSON.stringify(rollup.daily), app),
    db.prepare(ADD_VISITORS).bind(JSON.stringify(rollup.visitors), app),
    // Only a batch with revenue writes it (docs/operators.md#revenue): the others keep their statements.
    ...(rollup.revenue.length > 0 ? [db.prepare(ADD_REVENUE).bind(JSON.stringify(rollup.revenue), app)] : []),
    ...admissionWrites(db, app, admission, now),
    ...cohortWrites(db, app, cohorts, now),
    db.prepare(FORGET_IDS).bind(utcDay(now - ID_DAYS * DAY_MS)),
  ]);
}

const report = (what: string, error: unknown) =>
  console.error(what, error instanceof Error ? error.message : String(error));

/** Whether D1 answers at all: tells a message D1 refuses from a D1 that is down. */
async function answers(db: D1Database): Promise<boolean> {
  try {
    await db.prepare('SELECT 1').first();
    return true;
  } catch (error) {
    report('Funnel database not answering', error);
    return false;
  }
}

/**
 * Writes `messages` (writeRollup), as one transaction when it can; when that fails and D1 still
 * answers, message by message in order, so each message's fate is its own. Returns the ids not
 * written: all of them when D1 does not answer.
 */
export async function writeEach(
  db: D1Database,
  messages: readonly FunnelMessage[],
  now = Date.now(),
): Promise<Set<string>> {
  try {
    await writeRollup(db, messages, now);
    return new Set();
  } catch (error) {
    report('Funnel batch not written, writing its messages one by one', error);
  }
  const unique = eachIdOnce(messages);
  const failed = new Set<string>();
  let answering = await answers(db);
  for (const message of unique) {
    if (!answering) {
      failed.add(message.id);
      continue;
    }
    try {
      await writeRollup(db, [message], now);
    } catch (error) {
      report(`Funnel message ${message.id} not written`, error);
      failed.add(message.id);
      // A message D1 refuses is this message's fault; a D1 gone down is every later one's too.
      answering = await answers(db);
    }
  }
  return failed;
}

/** A batch's messages that parse, each with its body; the others acknowledged, reported and counted. */
export async function parseBatch(
  batch: MessageBatch<unknown>,
  env: Env,
): Promise<{ message: Message<unknown>; body: FunnelMessage }[]> {
  const parsed: { message: Message<unknown>; body: FunnelMessage }[] = [];
  let malformed = 0;
  for (const message of batch.messages) {
    const result = v.safeParse(FunnelMessageSchema, message.body);
    if (result.success) parsed.push({ message, body: result.output });
    else {
      // A malformed message never becomes valid: retrying it would only block the good ones.
      console.error('Funnel message dropped', v.summarize(result.issues));
      message.ack();
      malformed += 1;
    }
  }
  await countLoss(env, 'funnel-malformed', malformed);
  return parsed;
}

/** The queue handler: counts the batch, acknowledging each message written and retrying each one not. */
export async function consumeFunnelBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const parsed = await parseBatch(batch, env);
  const failed = await writeEach(
    env.FUNNEL_DB,
    parsed.map(({ body }) => body),
  );
  for (const { message, body } of parsed) {
    if (failed.has(body.id)) message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
    else message.ack();
  }
}
