/**
 * The funnel's dead-letter queue (docs/reliability.md): what the funnel's consumer gave up on is
 * written once more through the worker's own queue handler, counted once with what was counted
 * before, and when D1 still refuses it, counted as lost in `GET /api/losses` — never dropped silently.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import worker from '../../../worker/index.ts';
import { readLosses } from '../../../worker/reliability/losses.ts';
import { dailyCounts, freshChannel, funnelMessage, refusingRowsOf } from '../funnel-fixtures.ts';

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
  const result = await getQueueResult(batch, ctx);
  // A dead letter is never retried: written, or counted as lost, each is acknowledged.
  expect(result.retryMessages).toEqual([]);
  return [...result.explicitAcks].sort();
}

describe("the funnel's dead letters", () => {
  it('are counted once more, and what was counted before stays counted once', async () => {
    const channel = freshChannel();
    const counted = funnelMessage({ type: 'view', page: 'landing' }, { channel });
    await deadLetters([counted]);
    const result = await deadLetters([counted, funnelMessage({ type: 'tap', action: 'download' }, { channel })]);
    expect(result).toEqual(['d-0', 'd-1']);
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
    expect(result).toEqual(['d-0', 'd-1']);
    expect((await readLosses(env, 1))['funnel-dead-letters']).toBe(before + 2);
  });

  it('are written with the rest of their batch, and only the one D1 refuses is counted as lost', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = (await readLosses(env, 1))['funnel-dead-letters'];
    const channel = freshChannel();
    const poison = funnelMessage({ type: 'view', page: 'short' }, { channel }, { id: `poison-${crypto.randomUUID()}` });
    const messages = [
      funnelMessage({ type: 'view', page: 'landing' }, { channel }),
      poison,
      funnelMessage({ type: 'open', method: 'clipboard' }, { channel }),
    ];
    const result = await deadLetters(messages, { ...env, FUNNEL_DB: refusingRowsOf(env.FUNNEL_DB, poison.id) });
    logged.mockRestore();
    expect(result).toEqual(['d-0', 'd-1', 'd-2']);
    expect(await dailyCounts(channel)).toEqual({ 'view:landing': 1, 'open:clipboard': 1 });
    expect((await readLosses(env, 1))['funnel-dead-letters']).toBe(before + 1);
  });
});
