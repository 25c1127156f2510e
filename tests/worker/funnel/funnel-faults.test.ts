/**
 * Counting never breaks or delays an answer (docs/operators.md): a queue that fails or hangs leaves
 * the response as it was; the failure is only logged.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_CAMPAIGN } from '../../../shared/campaign.ts';
import { announce, sceneOf } from '../../../worker/announce.ts';
import { deviceDetection } from '../../../worker/device/device-detection.ts';
import type { AppEnv } from '../../../worker/env.ts';
import { eventDimensions, isCountedVisit, visitorSource } from '../../../worker/lib/visit.ts';
import { UA } from '../../fixtures/agents.ts';

/** A page that announces a view of itself, as the page routes do. */
function countingApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(deviceDetection());
  app.get('/', (c) => {
    announce(sceneOf(c), {
      fact: 'page-viewed',
      at: Date.now(),
      page: 'download',
      dims: eventDimensions(c, NO_CAMPAIGN),
      visitor: visitorSource(c),
    });
    return c.text('page');
  });
  return app;
}

function queue(send: () => Promise<void>): Queue {
  return { send, sendBatch: send } as unknown as Queue;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('counting a view', () => {
  it('leaves the page as it was when the queue fails, and logs the failure', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ctx = createExecutionContext();
    const bindings = { ...env, FUNNEL_QUEUE: queue(() => Promise.reject(new Error('queue down (injected)'))) };
    const res = await countingApp().request('https://lander.test/', {}, bindings, ctx);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('page');
    await waitOnExecutionContext(ctx);
    expect(logged).toHaveBeenCalledWith('Funnel event not sent', 'queue down (injected)');
  });

  it('answers before the queue has taken the event', async () => {
    let sent = false;
    const ctx = createExecutionContext();
    const bindings = {
      ...env,
      FUNNEL_QUEUE: queue(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        sent = true;
      }),
    };
    const res = await countingApp().request('https://lander.test/', {}, bindings, ctx);
    expect(res.status).toBe(200);
    expect(sent).toBe(false);
    await waitOnExecutionContext(ctx);
    expect(sent).toBe(true);
  });
});

describe('a counted visit', () => {
  /** Whether the worker would count a request to `/` with `init`. */
  async function counted(init: { method?: string; headers?: Record<string, string> } = {}): Promise<boolean> {
    let verdict: boolean | undefined;
    const app = new Hono<AppEnv>();
    app.use(deviceDetection());
    app.on(['GET', 'HEAD'], '/', (c) => {
      verdict = isCountedVisit(c);
      return c.text('page');
    });
    const headers = { 'user-agent': UA.iPhoneSafari, ...init.headers };
    await app.request('https://lander.test/', { method: init.method ?? 'GET', headers }, env);
    if (verdict === undefined) throw new Error('the page did not run');
    return verdict;
  }

  it('is a person’s GET', async () => {
    expect(await counted()).toBe(true);
  });

  it('is never a HEAD', async () => {
    expect(await counted({ method: 'HEAD' })).toBe(false);
  });

  it('is never a bot’s or link previewer’s', async () => {
    expect(await counted({ headers: { 'user-agent': UA.googlebot } })).toBe(false);
  });

  it.each([
    ['sec-purpose', 'prefetch'],
    ['sec-purpose', 'prefetch;prerender'],
    ['purpose', 'prefetch'],
    ['x-moz', 'prefetch'],
  ])('is never a speculative load (%s: %s)', async (name, value) => {
    expect(await counted({ headers: { [name]: value } })).toBe(false);
  });
});
