/** The console's figures as the range changes (docs/operators.md): a late answer for an old range is dropped. */
import { describe, expect, it } from 'vitest';
import { latestOnly, STALE } from '../../client/app/admin/shared/latest-only.ts';

/** A promise and the functions that settle it, so a test decides the order answers land in. */
function pending<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: Error) => void = () => {};
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('latestOnly', () => {
  it('drops an older answer that lands after a newer call was made', async () => {
    const gate = latestOnly();
    const older = pending<string>();
    const newer = pending<string>();
    const first = gate(older.promise);
    const second = gate(newer.promise);
    newer.resolve('new range');
    older.resolve('old range');
    expect(await second).toBe('new range');
    expect(await first).toBe(STALE);
  });

  it('drops an older failure, and passes the newest one on', async () => {
    const gate = latestOnly();
    const older = pending<string>();
    const newer = pending<string>();
    const first = gate(older.promise);
    const second = gate(newer.promise);
    older.reject(new Error('old'));
    newer.reject(new Error('new'));
    expect(await first).toBe(STALE);
    await expect(second).rejects.toThrow('new');
  });
});
