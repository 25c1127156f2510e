/**
 * While the bundled demo configuration stands in (docs/config.md), every page goes through the app,
 * kept ones included: its responses say so (`x-config: fallback`), which a kept page answered before
 * routing would not. Its own file: no configuration is ever stored here, so the isolate's loader
 * keeps only the fallback (worker/render/kept-response.ts).
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import app from '../../worker/index.ts';
import { keptResponse } from '../../worker/render/kept-response.ts';
import { UA } from '../fixtures/agents.ts';
import { ORIGIN } from './helpers.ts';

const cached = { ...env, CONFIG_CACHE_SECONDS: '30' } as Env;
const request = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { 'user-agent': UA.iPhoneSafari } });

describe('kept pages under the demo configuration', () => {
  it('are answered by the app, which says the demo stands in', async () => {
    const path = `/?channel=${crypto.randomUUID()}`;
    for (let i = 0; i < 2; i += 1) {
      const ctx = createExecutionContext();
      const res = await app.fetch(request(path), cached, ctx);
      await res.text();
      await waitOnExecutionContext(ctx);
      expect(res.headers.get('x-config')).toBe('fallback');
    }
    expect(keptResponse(request(path), cached, createExecutionContext())).toBeUndefined();
  });
});
