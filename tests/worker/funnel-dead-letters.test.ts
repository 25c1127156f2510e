/**
 * The funnel's dead-letter queue (docs/reliability.md): what the funnel's consumer gave up on is
 * written once more through the worker's own queue handler, counted once with what was counted
 * before, and when D1 still refuses it, counted as lost in `GET /api/losses` — never dropped silently.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index.ts';
import { readLosses } from '../../worker/reliability/losses.ts';
import { dailyCounts, freshChannel, funnelMessage } from './funnel-fixtures.ts';

/** The real database whose transactions (`batch`) fail, as a D1 that cannot take a write would. */
function refusingBatches(db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, name) {
      if (name === 'batch') return () => Promise.reject(new Error('D1 refused the transaction (injected)'));
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function deadLetters(messages: unknown[], bindings: Env = env) {
  const batch = createMessageBatch(
    'lander-dev-funnel-dead',
    messages.map((body, at) => ({ id: `d-${at}`, timestamp: 0, attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, bindings);
  return getQueueResult(batch, ctx);
}

describe("the funnel's dead letters", () => {
  it('are counted once more, and what was counted before stays counted once', async () => {
    const channel = freshChannel();
    const counted = funnelMessage({ type: 'view', page: 'landing' }, { channel });
    await deadLetters([counted]);
    const result = await deadLetters([counted, funnelMessage({ type: 'tap', action: 'download' }, { channel })]);
    expect(result.ackAll).toBe(true);
    expect(await dailyCounts(channel)).toEqual({ 'view:landing': 1, 'tap:download': 1 });
  });

  it('are counted as lost, and acknowledged, when D1 still refuses them', async () => {
    const before = (await readLosses(env, 1))['funnel-dead-letters'];
    const messages = [
      funnelMessage({ type: 'view', page: 'landing' }, { channel: freshChannel() }),
      funnelMessage({ type: 'view', page: 'landing' }, { channel: freshChannel() }),
    ];
    // The rollup's transaction fails; the loss counter's single statement is taken.
    const result = await deadLetters(messages, { ...env, FUNNEL_DB: refusingBatches(env.FUNNEL_DB) });
    expect(result.ackAll).toBe(true);
    expect((await readLosses(env, 1))['funnel-dead-letters']).toBe(before + 2);
  });
});
