/**
 * The worker's one queue handler: each batch goes to the consumer of its queue (wrangler.toml), the
 * funnel's (docs/operators.md) and its dead letters (docs/reliability.md), or the webhooks' and their
 * dead letters (docs/webhooks.md), or the privacy requests' (docs/privacy.md).
 */
import { consumeConversionBatch, consumeConversionDeadLetters } from './conversions/consume.ts';
import { consumeFunnelBatch } from './funnel/consume-batch.ts';
import { consumeFunnelDeadLetters } from './funnel/dead-letters.ts';
import { consumePrivacyBatch } from './privacy/process.ts';
import { consumeWebhookBatch } from './webhooks/consume.ts';
import { consumeDeadLetters } from './webhooks/dead-letters.ts';

/**
 * Routes `batch` by its queue's name: `…-funnel-dead`, `…-webhooks-dead`, `…-webhooks`, `…-privacy`,
 * `…-conversions` and its dead letters (docs/conversions.md), else the funnel.
 */
export function handleQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  if (batch.queue.endsWith('-privacy')) return consumePrivacyBatch(batch, env);
  if (batch.queue.endsWith('-conversions-dead')) return consumeConversionDeadLetters(batch, env);
  if (batch.queue.endsWith('-conversions')) return consumeConversionBatch(batch, env);
  if (batch.queue.endsWith('-funnel-dead')) return consumeFunnelDeadLetters(batch, env);
  if (batch.queue.endsWith('-webhooks-dead')) return consumeDeadLetters(batch, env);
  if (batch.queue.endsWith('-webhooks')) return consumeWebhookBatch(batch, env);
  return consumeFunnelBatch(batch, env);
}
