/** The many-apps bench row's registries (tools/bench/apps.ts) are registries the worker takes. */
import { describe, expect, it } from 'vitest';
import { validateRegistry } from '../../shared/apps.ts';
import { benchRegistry } from '../bench/apps.ts';

describe('the bench registries', () => {
  it.each([1, 50])('of %i apps are valid, the default app on the bench server host', (count) => {
    const registry = benchRegistry(count, '127.0.0.1:41234');
    expect(validateRegistry(registry).ok).toBe(true);
    expect(registry.apps).toHaveLength(count);
    expect(registry.apps[0]).toEqual({ id: 'default', name: 'Bench', hosts: ['127.0.0.1:41234'] });
  });
});
