/**
 * A tap's click recorded within attribution's budget (docs/reliability.md): the beacon is answered
 * once the click is written or `ATTRIBUTION_BUDGET_MS` has passed, whichever is first. A write that
 * failed or is late is retried after the response (both writes are `INSERT OR IGNORE` by click id, so
 * a retry never doubles a click); when every retry fails, the click is counted as lost (`clicks`).
 * Its carrier still resolves from its token; only the look-alike candidate and the tap's time are lost.
 */
import { withinBudget } from '../lib/within-budget.ts';
import { ATTRIBUTION_BUDGET_MS, messageOf, retried } from '../reliability/budget.ts';
import { countLoss } from '../reliability/losses.ts';
import type { ClickInput } from './contract.ts';
import { type ClickContext, recordClick } from './record-click.ts';

async function catchUp(ctx: ClickContext, body: ClickInput, work: Promise<void>): Promise<void> {
  const late = await withinBudget(work, ATTRIBUTION_BUDGET_MS).then(
    () => true,
    () => false,
  );
  if (late) return;
  const done = await retried(() => recordClick(ctx, body).then(() => true), ATTRIBUTION_BUDGET_MS);
  if (!done) await countLoss(ctx.env, 'clicks', 1);
}

/** Records the click, waiting for it at most the budget; what is not done by then is done after the response. */
export async function recordClickWithinBudget(
  ctx: ClickContext,
  body: ClickInput,
  waiter: Pick<ExecutionContext, 'waitUntil'>,
): Promise<void> {
  const work = recordClick(ctx, body);
  try {
    await withinBudget(work, ATTRIBUTION_BUDGET_MS);
  } catch (error) {
    console.error('Click not recorded in time', messageOf(error));
    waiter.waitUntil(catchUp(ctx, body, work));
  }
}
