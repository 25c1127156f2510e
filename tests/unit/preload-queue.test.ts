import { describe, expect, it } from 'vitest';
import { createPreloadQueue } from '../../client/browser/preload-queue.ts';

/** A load that stays pending until `settle` is called. */
function deferred() {
  let settle: (ok: boolean) => void = () => {};
  const promise = new Promise<void>((resolve, reject) => {
    settle = (ok) => (ok ? resolve() : reject(new Error('chunk failed')));
  });
  return { promise, settle };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the preload queue', () => {
  it('never has more than 4 loads pending, and starts the next as one ends', async () => {
    const queue = createPreloadQueue();
    const loads = Array.from({ length: 10 }, () => deferred());
    const started: number[] = [];
    for (const [i, load] of loads.entries()) {
      queue.add(`screen-${i}`, () => {
        started.push(i);
        return load.promise;
      });
    }
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    expect(queue.pending).toBe(4);

    loads[1]?.settle(true);
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(queue.pending).toBe(4);

    loads[0]?.settle(false); // a failed preload frees its slot too
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);

    for (const load of loads) load.settle(true);
    for (let i = 0; i < 5; i += 1) await tick();
    expect(started).toHaveLength(10);
    expect(queue.pending).toBe(0);
  });

  it('loads each key once, however often it is asked for', async () => {
    const queue = createPreloadQueue();
    let calls = 0;
    const load = async () => {
      calls += 1;
    };
    for (let i = 0; i < 5; i += 1) queue.add('landing', load);
    await tick();
    await tick();
    queue.add('landing', load);
    await tick();
    expect(calls).toBe(1);
  });

  it('lets a key that failed be asked for again', async () => {
    const queue = createPreloadQueue();
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new Error('offline');
    };
    queue.add('landing', failing);
    await tick();
    await tick();
    queue.add('landing', failing);
    await tick();
    await tick();
    expect(calls).toBe(2);
  });

  it('survives a load that throws synchronously', async () => {
    const queue = createPreloadQueue(1);
    let second = false;
    queue.add('broken', () => {
      throw new Error('sync');
    });
    queue.add('next', async () => {
      second = true;
    });
    for (let i = 0; i < 4; i += 1) await tick();
    expect(second).toBe(true);
  });
});
