import { describe, expect, it } from 'vitest';
import { type SharedReadResult, sharedRead } from '../../worker/kv/shared-read.ts';

const kv = { get: async () => null } as unknown as Pick<KVNamespace, 'get'>;

describe('a shared KV read', () => {
  it('is replaced, not joined again, once a joiner waited it out, though the clock stood still', async () => {
    // The first request's read was cancelled with that request: it never settles, and no time passes.
    let reads = 0;
    const load = sharedRead({
      read: () => {
        reads += 1;
        return reads === 1
          ? new Promise<SharedReadResult<string>>(() => {})
          : Promise.resolve({ value: 'fresh', failed: false });
      },
      late: () => 'late',
      timeoutMs: 20,
      failedTtlMs: 0,
      now: () => 0,
    });
    void load(kv, 0);
    expect(await load(kv, 0)).toBe('late');
    expect(await load(kv, 0)).toBe('fresh');
    expect(reads).toBe(2);
  });

  it('is joined while it is under way and within its budget', async () => {
    let reads = 0;
    const load = sharedRead({
      read: async () => {
        reads += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { value: reads, failed: false };
      },
      late: () => -1,
      timeoutMs: 1_000,
      failedTtlMs: 0,
      now: () => 0,
    });
    expect(await Promise.all([load(kv, 0), load(kv, 0), load(kv, 0)])).toEqual([1, 1, 1]);
  });
});
