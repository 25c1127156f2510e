import { describe, expect, it, vi } from 'vitest';
import { resolveFingerprintId } from '../../client/browser/identity/fingerprint-id.ts';
import { memoryStore } from './fakes.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HASH = '0123456789abcdef0123456789abcdef';

describe('fingerprint id resolution (docs/identity.md)', () => {
  it('reuses fingerprint_id from localStorage without computing a fingerprint', async () => {
    const storage = memoryStore({ fingerprint_id: HASH });
    const compute = vi.fn(async () => 'ffffffffffffffffffffffffffffffff');
    expect(await resolveFingerprintId({ storage, compute })).toEqual({ id: HASH, source: 'stored' });
    expect(compute).not.toHaveBeenCalled();
  });

  it('computes it once when absent and stores it', async () => {
    const storage = memoryStore();
    const compute = vi.fn(async () => HASH);
    expect(await resolveFingerprintId({ storage, compute })).toEqual({ id: HASH, source: 'fingerprintjs' });
    expect(await resolveFingerprintId({ storage, compute })).toEqual({ id: HASH, source: 'stored' });
    expect(compute).toHaveBeenCalledTimes(1);
    expect(storage.data.get('fingerprint_id')).toBe(HASH);
  });

  it('recomputes when the stored value is not one we could have written', async () => {
    const storage = memoryStore({ fingerprint_id: '<img src=x>' });
    expect(await resolveFingerprintId({ storage, compute: async () => HASH })).toEqual({
      id: HASH,
      source: 'fingerprintjs',
    });
  });

  it('warns and stores a random UUID when FingerprintJS fails', async () => {
    const storage = memoryStore();
    const warn = vi.fn<(message: string) => void>();
    const resolved = await resolveFingerprintId({
      storage,
      compute: () => Promise.reject(new Error('canvas blocked')),
      warn,
    });
    expect(resolved.source).toBe('temporary');
    expect(resolved.id).toMatch(UUID);
    expect(storage.data.get('fingerprint_id')).toBe(resolved.id);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('canvas blocked');
  });

  it('treats an unusable answer from FingerprintJS as a failure', async () => {
    const warn = vi.fn<(message: string) => void>();
    const resolved = await resolveFingerprintId({ storage: memoryStore(), compute: async () => '', warn });
    expect(resolved.source).toBe('temporary');
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
