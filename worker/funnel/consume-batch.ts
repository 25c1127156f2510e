/**
 * The funnel queue's consumer (docs/operators.md): validates a batch, adds it up (rollup.ts) and writes
 * it to D1 in one transaction of four statements, after one read, whatever the batch's size.
 *
 * Idempotent: every event's id is recorded in the same transaction as its counts, and ids already
 * recorded are left out, so a batch the queue delivers again (after a failure, or twice) counts once.
 * Two deliveries racing each other both try to record the same id; the second transaction fails on
 * it as a whole and is retried, and then finds the ids taken. Any D1 failure retries the batch; after
 * the queue's `max_retries` it lands in the dead-letter queue (wrangler.toml), never dropped.
 */
import * as v from 'valibot';
import { utcDay } from '../../shared/time-zone.ts';
import { type FunnelMessage, FunnelMessageSchema } from './events.ts';
import { DIMENSION_COLUMNS, rollUp } from './rollup.ts';

/** How long ids are kept: longer than the queue keeps an undelivered message (14 days at most). */
const ID_DAYS = 30;
/** Seconds before a failed batch is delivered again. */
const RETRY_DELAY_SECONDS = 10;

const DIMS = DIMENSION_COLUMNS.map(([, column]) => column);
const field = (at: number): string => `json_extract(value, '$[${at}]')`;
const fields = (count: number): string => Array.from({ length: count }, (_, at) => field(at)).join(', ');

const SEEN = 'SELECT id FROM funnel_messages WHERE id IN (SELECT value FROM json_each(?1))';
// Ids are dated by when they were counted, not by their event's day: the queue may deliver an old event again.
const RECORD_IDS = 'INSERT INTO funnel_messages (id, day) SELECT value, ?2 FROM json_each(?1)';
const DAILY_KEY = ['day', ...DIMS, 'metric'].join(', ');
const ADD_DAILY =
  `INSERT INTO funnel_daily (${DAILY_KEY}, count, value_sum) SELECT ${fields(DIMS.length + 4)} ` +
  `FROM json_each(?1) WHERE true ON CONFLICT (${DAILY_KEY}) ` +
  'DO UPDATE SET count = count + excluded.count, value_sum = value_sum + excluded.value_sum';
const ADD_VISITORS = `INSERT OR IGNORE INTO funnel_visitors (day, visitor, ${DIMS.join(', ')}) SELECT ${fields(
  DIMS.length + 2,
)} FROM json_each(?1)`;
const FORGET_IDS = 'DELETE FROM funnel_messages WHERE day < ?1';

/** Counts `messages` in `db` unless already counted; throws when D1 does. `now` dates the id cleanup. */
export async function writeRollup(db: D1Database, messages: readonly FunnelMessage[], now = Date.now()): Promise<void> {
  if (messages.length === 0) return;
  const ids = [...new Set(messages.map((message) => message.id))];
  const seen = await db.prepare(SEEN).bind(JSON.stringify(ids)).all<{ id: string }>();
  const counted = new Set(seen.results.map((row) => row.id));
  const fresh = messages.filter((message) => !counted.has(message.id));
  if (fresh.length === 0) return;
  const rollup = rollUp(fresh);
  await db.batch([
    db.prepare(RECORD_IDS).bind(JSON.stringify(rollup.ids), utcDay(now)),
    db.prepare(ADD_DAILY).bind(JSON.stringify(rollup.daily)),
    db.prepare(ADD_VISITORS).bind(JSON.stringify(rollup.visitors)),
    db.prepare(FORGET_IDS).bind(utcDay(now - ID_DAYS * 86_400_000)),
  ]);
}

/** The queue handler: counts the batch and acknowledges it, or asks for all of it again. */
export async function consumeFunnelBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const messages: FunnelMessage[] = [];
  for (const message of batch.messages) {
    const parsed = v.safeParse(FunnelMessageSchema, message.body);
    // A malformed message never becomes valid: retrying it would only block the good ones.
    if (parsed.success) messages.push(parsed.output);
    else console.error('Funnel message dropped', v.summarize(parsed.issues));
  }
  try {
    await writeRollup(env.FUNNEL_DB, messages);
    batch.ackAll();
  } catch (error) {
    console.error('Funnel batch not written, retrying', error instanceof Error ? error.message : String(error));
    batch.retryAll({ delaySeconds: RETRY_DELAY_SECONDS });
  }
}
