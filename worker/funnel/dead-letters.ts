/**
 * The funnel's dead-letter queue's consumer (docs/reliability.md): a message the funnel's consumer
 * gave up on after its retries is counted once more — the ids already counted are left out, so
 * nothing counts twice — written with the others when it can be, else alone, and what even that
 * cannot write is counted as lost (`GET /api/losses`), one by one, never dropped without a trace.
 */
import { countLoss } from '../reliability/losses.ts';
import { parseBatch, writeEach } from './consume-batch.ts';

/** The dead-letter queue's handler: writes what it can, counts the rest as lost, acknowledges each message. */
export async function consumeFunnelDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const parsed = await parseBatch(batch, env);
  const failed = await writeEach(
    env.FUNNEL_DB,
    parsed.map(({ body }) => body),
  );
  const lost = parsed.filter(({ body }) => failed.has(body.id)).length;
  if (lost > 0) console.error('Funnel dead letters not written', lost);
  await countLoss(env, 'funnel-dead-letters', lost);
  for (const { message } of parsed) message.ack();
}
