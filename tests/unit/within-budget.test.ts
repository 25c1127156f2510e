/** The one race of a call against its budget (docs/reliability.md), and the retries built on it. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OverBudget, withinBudget } from '../../worker/lib/within-budget.ts';
import { RETRY_DELAYS_MS, retried } from '../../worker/reliability/budget.ts';

/** Work that answers `value` after `ms` (on the test's fake clock). */
const answersAfter = <T>(ms: number, value: T): Promise<T> =>
  new Promise((resolve) => setTimeout(() => resolve(value), ms));

/** Work that never settles, as a hanging binding's call. */
const hangs = <T>(): Promise<T> => new Promise<T>(() => {});

describe('withinBudget', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the work when it settles inside the budget, and leaves no timer behind', async () => {
    const answer = withinBudget(answersAfter(99, 'in time'), 100);
    await vi.advanceTimersByTimeAsync(99);
    await expect(answer).resolves.toBe('in time');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes a rejection of the work through unchanged', async () => {
    const answer = withinBudget(Promise.reject(new Error('store down')), 100);
    await expect(answer).rejects.toThrow('store down');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with OverBudget once the budget is spent, without waiting for the work', async () => {
    const answer = withinBudget(hangs<string>(), 100);
    const settled = answer.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(100);
    const error = await settled;
    expect(error).toBeInstanceOf(OverBudget);
    expect(error).toHaveProperty('message', 'no answer within 100 ms');
  });

  it('answers `late()` instead when the caller gives one, and calls it only when late', async () => {
    const late = vi.fn(() => 'fallback');
    const answer = withinBudget(answersAfter(80, 'slow'), 50, late);
    await vi.advanceTimersByTimeAsync(50);
    await expect(answer).resolves.toBe('fallback');
    expect(late).toHaveBeenCalledTimes(1);

    late.mockClear();
    await expect(withinBudget(Promise.resolve('quick'), 50, late)).resolves.toBe('quick');
    await vi.advanceTimersByTimeAsync(100);
    expect(late).not.toHaveBeenCalled();
  });
});

describe('retried', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('gives every try its budget and answers the first that succeeds', async () => {
    let tries = 0;
    const attempt = () => {
      tries += 1;
      // The first try hangs past its budget; the second answers.
      return tries === 1 ? hangs<string>() : Promise.resolve(`try ${tries}`);
    };
    const answer = retried(attempt, 100);
    await vi.advanceTimersByTimeAsync((RETRY_DELAYS_MS[0] ?? 0) + 100 + (RETRY_DELAYS_MS[1] ?? 0));
    await expect(answer).resolves.toBe('try 2');
  });

  it('answers null when every try fails', async () => {
    const answer = retried(() => Promise.reject(new Error('down')), 100);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0));
    await expect(answer).resolves.toBeNull();
  });
});
