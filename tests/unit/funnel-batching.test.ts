/**
 * An isolate's events go to the queue in batches (worker/funnel/record-event.ts): a burst of page
 * views costs a few sends, not one each, and nothing is lost or sent twice.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type EventInput, NO_DIMENSIONS } from '../../worker/funnel/events.ts';
import { FLUSH_MS, MAX_BATCH, recordEvent } from '../../worker/funnel/record-event.ts';

interface Sent {
  body: { id: string; event: { type: string } };
}

function fakeEnv() {
  const sends: Sent[][] = [];
  const env = {
    LANDER_ENV: 'development',
    FUNNEL_QUEUE: {
      send: () => Promise.reject(new Error('one message at a time is not how events are sent')),
      sendBatch: async (messages: Sent[]) => {
        sends.push(messages);
      },
    },
  } as unknown as Env;
  return { env, sends };
}

function fakeContext() {
  const pending: Promise<unknown>[] = [];
  return {
    ctx: { waitUntil: (p: Promise<unknown>) => void pending.push(p) },
    /** Waits for every waitUntil promise, including those added while waiting. */
    async settle() {
      for (let i = 0; i < pending.length; i++) await pending[i];
    },
  };
}

const view: EventInput = { event: { type: 'view', page: 'download' }, dims: NO_DIMENSIONS };

afterEach(() => {
  vi.useRealTimers();
});

describe('recordEvent', () => {
  it('sends the rest of a batch when one event’s visitor hash fails, and says so', async () => {
    const { env, sends } = fakeEnv();
    const { ctx, settle } = fakeContext();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(crypto.subtle, 'sign').mockRejectedValueOnce(new Error('sign failed'));
    const visited: EventInput = { ...view, visitor: { address: '198.51.100.7', agent: 'Agent' } };
    for (let i = 0; i < 3; i++) recordEvent(env, ctx, visited);
    await settle();
    expect(sends.map((batch) => batch.length)).toEqual([2]);
    expect(error).toHaveBeenCalledWith('Funnel event not sent', 'sign failed');
    vi.restoreAllMocks();
  });

  it(`sends a burst of views in batches of at most ${MAX_BATCH}, each view once`, async () => {
    const { env, sends } = fakeEnv();
    const { ctx, settle } = fakeContext();
    for (let i = 0; i < 120; i++) recordEvent(env, ctx, view);
    await settle();
    expect(sends.map((batch) => batch.length)).toEqual([50, 50, 20]);
    const ids = sends.flat().map((m) => m.body.id);
    expect(new Set(ids).size).toBe(120);
  });

  it(`gathers for ${FLUSH_MS} ms, then a later view opens the next batch`, async () => {
    const { env, sends } = fakeEnv();
    const first = fakeContext();
    recordEvent(env, first.ctx, view);
    recordEvent(env, first.ctx, view);
    await first.settle();
    expect(sends.map((batch) => batch.length)).toEqual([2]);
    const second = fakeContext();
    recordEvent(env, second.ctx, view);
    await second.settle();
    expect(sends.map((batch) => batch.length)).toEqual([2, 1]);
  });

  it('logs a failing queue and throws nothing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const env = { FUNNEL_QUEUE: { sendBatch: () => Promise.reject(new Error('queue down')) } } as unknown as Env;
    const { ctx, settle } = fakeContext();
    expect(() => recordEvent(env, ctx, view)).not.toThrow();
    await settle();
    expect(error).toHaveBeenCalledWith('Funnel event not sent', 'queue down');
  });
});
