/**
 * The one way the worker bounds a call in time (docs/reliability.md, docs/config.md): the call is
 * raced against a timer, and a call that has not settled within its budget is given up by the
 * request (it may still finish later), so an answer never waits past the budget. The budgets
 * themselves belong to the code that spends them (worker/reliability/budget.ts, worker/kv/).
 */

/** Thrown when a call outlived its budget and the caller gave no answer to use instead. */
export class OverBudget extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'OverBudget';
  }
}

/**
 * `work`, or, when it has not settled within `ms`, `late()` — by default an `OverBudget` rejection.
 * A rejection of `work` inside the budget passes through; the timer is cleared either way.
 */
export async function withinBudget<T>(
  work: Promise<T>,
  ms: number,
  late: () => T = () => {
    throw new OverBudget(ms);
  },
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // `.then(late)` turns a throwing `late` into this promise's rejection rather than a timer's crash.
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  }).then(late);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
