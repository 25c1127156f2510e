/**
 * The worker's one queue handler: each batch goes to the consumer of its queue (wrangler.toml), the
 * funnel's (docs/operators.md) or the webhooks' and their dead letters (docs/webhooks.md).
 */
import { consumeFunnelBatch } from './funnel/consume-batch.ts';
import { consumeWebhookBatch } from './webhooks/consume.ts';
import { consumeDeadLetters } from './webhooks/dead-letters.ts';

/** Routes `batch` by its queue's name: `…-webhooks-dead`, `…-webhooks`, else the funnel. */
export function handleQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  if (batch.queue.endsWith('-webhooks-dead')) return consumeDeadLetters(batch, env);
  if (batch.queue.endsWith('-webhooks')) return consumeWebhookBatch(batch, env);
  return consumeFunnelBatch(batch, env);
}
