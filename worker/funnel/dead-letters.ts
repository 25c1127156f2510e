/**
 * The funnel's dead-letter queue's consumer (docs/reliability.md): a batch the funnel's consumer gave
 * up on after its retries is counted once more — the ids already counted are left out, so nothing
 * counts twice — and what even that cannot write is counted as lost (`GET /api/losses`), never dropped
 * without a trace. A malformed message was already reported when it was dropped.
 */
import * as v from 'valibot';
import { countLoss } from '../reliability/losses.ts';
import { writeRollup } from './consume-batch.ts';
import { type FunnelMessage, FunnelMessageSchema } from './events.ts';

/** The dead-letter queue's handler: writes what it can, counts the rest as lost, acknowledges the batch. */
export async function consumeFunnelDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const messages: FunnelMessage[] = [];
  for (const message of batch.messages) {
    const parsed = v.safeParse(FunnelMessageSchema, message.body);
    if (parsed.success) messages.push(parsed.output);
  }
  try {
    await writeRollup(env.FUNNEL_DB, messages);
  } catch (error) {
    console.error('Funnel dead letters not written', error instanceof Error ? error.message : String(error));
    await countLoss(env, 'funnel-dead-letters', messages.length);
  }
  batch.ackAll();
}
