/**
 * An install answered within attribution's budget, whatever its Durable Objects do
 * (docs/reliability.md). When the ledger or the network's bucket throws or has not answered within
 * `ATTRIBUTION_BUDGET_MS`, the app gets the answer that needs no storage (`answerWithoutStorage`: a
 * carrier's token, else `unavailable`) and the install catches up after the response: the first call
 * is given another budget, then `resolveInstall` is retried. The ledger stores one answer per
 * `(app, installId)` and says which call stored it (`first`), so whichever call decided it, the
 * install is counted and sent once (`settle`). When every retry fails, the install is counted with the
 * answer the app got, so it is not lost, and the loss of its idempotency is counted (`install-catch-up`).
 */
import { withinBudget } from '../lib/within-budget.ts';
import { ATTRIBUTION_BUDGET_MS, messageOf, retried } from '../reliability/budget.ts';
import { countLoss } from '../reliability/losses.ts';
import type { InstallInput } from './contract.ts';
import type { AttributionContext } from './record-click.ts';
import { answerWithoutStorage, installKey, type ResolvedInstall, resolveInstall } from './resolve-install.ts';

/** Counts and sends an install the one time its answer is decided (`first`). */
export type Settle = (resolved: ResolvedInstall) => void;

async function catchUp(ctx: AttributionContext, body: InstallInput, work: Promise<ResolvedInstall>, settle: Settle) {
  const late = await withinBudget(work, ATTRIBUTION_BUDGET_MS).catch(() => null);
  const resolved = late ?? (await retried(() => resolveInstall(ctx, body), ATTRIBUTION_BUDGET_MS));
  if (resolved) return settle(resolved);
  const { answer, explanation } = await answerWithoutStorage(ctx, body);
  const key = await installKey(ctx.salt, body.app, body.installId);
  settle({ answer, explanation, first: true, test: body.test === true, key });
  await countLoss(ctx.env, 'install-catch-up', 1);
}

/**
 * The install's answer within the budget; `settle` runs once it is decided, now or (under
 * `waiter.waitUntil`) after the response.
 */
export async function resolveWithinBudget(
  ctx: AttributionContext,
  body: InstallInput,
  waiter: Pick<ExecutionContext, 'waitUntil'>,
  settle: Settle,
): Promise<ResolvedInstall> {
  const work = resolveInstall(ctx, body);
  try {
    const resolved = await withinBudget(work, ATTRIBUTION_BUDGET_MS);
    settle(resolved);
    return resolved;
  } catch (error) {
    console.error('Install answered without its storage', messageOf(error));
    waiter.waitUntil(catchUp(ctx, body, work, settle));
    const degraded = await answerWithoutStorage(ctx, body);
    const key = await installKey(ctx.salt, body.app, body.installId);
    return { ...degraded, first: false, test: body.test === true, key };
  }
}
