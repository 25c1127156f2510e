/**
 * The one way a producer hands messages to a queue (docs/reliability.md): the funnel's events
 * (worker/funnel/record-event.ts) and the webhooks' (worker/webhooks/emit.ts). A send the queue
 * refuses, or that overruns its budget, is made once more after `RESEND_MS` with the same messages —
 * their ids are kept, so whoever reads them tells a repeat — and then counted as lost.
 */
import { withinBudget } from '../lib/within-budget.ts';
import { QUEUE_SEND_BUDGET_MS } from './budget.ts';
import { countLoss, type LossKind } from './losses.ts';

/** How long before a refused send is made again. */
export const RESEND_MS = 250;

/** One producer's send: what it sends, what is lost if it fails twice, and how it logs a refusal. */
export interface QueueSend {
  /** One send to the queue (`send` or `sendBatch`); called again, as it is, for the retry. */
  send(): Promise<unknown>;
  /** What the messages are, as the loss counter names them. */
  loss: LossKind;
  /** How many are lost when both sends fail. */
  count: number;
  /** Logs a refused send in the producer's words. */
  report(error: unknown): void;
}

/** Sends, once more after `RESEND_MS` when refused, then counts the loss; never throws. */
export async function sendOrCountLoss(env: Env, { send, loss, count, report }: QueueSend): Promise<void> {
  try {
    await withinBudget(send(), QUEUE_SEND_BUDGET_MS);
  } catch (error) {
    report(error);
    await new Promise((resolve) => setTimeout(resolve, RESEND_MS));
    await withinBudget(send(), QUEUE_SEND_BUDGET_MS).catch(async (again: unknown) => {
      report(again);
      await countLoss(env, loss, count);
    });
  }
}
