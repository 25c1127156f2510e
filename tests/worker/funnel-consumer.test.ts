/**
 * The funnel queue's consumer as a unit inside workerd (docs/operators.md): a batch in, D1 rows and
 * the batch's acknowledgement or retry out.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { consumeFunnelBatch, writeRollup } from '../../worker/funnel/consume-batch.ts';
import type { FunnelMessage } from '../../worker/funnel/events.ts';
import { countingDb, dailyCounts, failingDb, freshChannel, funnelMessage, visitorRows } from './funnel-fixtures.ts';

function batchOf(messages: unknown[]): MessageBatch<unknown> {
  return createMessageBatch(
    'lander-dev-funnel',
    messages.map((body, at) => ({ id: `q-${at}`, timestamp: 0, attempts: 1, body })),
  );
}

async function consume(messages: unknown[], bindings: Env = env) {
  const batch = batchOf(messages);
  const ctx = createExecutionContext();
  await consumeFunnelBatch(batch, bindings);
  return getQueueResult(batch, ctx);
}

describe('the funnel consumer', () => {
  it('adds a batch up into one count per metric and acknowledges it', async () => {
    const channel = freshChannel();
    const result = await consume([
      funnelMessage({ type: 'view', page: 'landing' }, { channel }),
      funnelMessage({ type: 'view', page: 'landing' }, { channel }),
      funnelMessage({ type: 'tap', action: 'download' }, { channel }),
      funnelMessage({ type: 'install', method: 'clipboard' }, { channel }),
      funnelMessage({ type: 'install', unmatched: 'none' }, { channel }),
      funnelMessage({ type: 'event', name: 'register' }, { channel }),
    ]);
    expect(result.ackAll).toBe(true);
    expect(result.retryBatch.retry).toBe(false);
    expect(await dailyCounts(channel)).toEqual({
      'view:landing': 2,
      'tap:download': 1,
      'install:clipboard': 1,
      'install:unmatched:none': 1,
      'event:register': 1,
    });
  });

  it('counts a batch delivered twice once', async () => {
    const channel = freshChannel();
    const messages = [
      funnelMessage({ type: 'view', page: 'download' }, { channel }, { visitor: 'v1' }),
      funnelMessage({ type: 'tap', action: 'store' }, { channel }, { visitor: 'v1' }),
    ];
    await consume(messages);
    const again = await consume(messages);
    expect(again.ackAll).toBe(true);
    expect(await dailyCounts(channel)).toEqual({ 'view:download': 1, 'tap:store': 1 });
  });

  it('counts only the new events of a batch that partly was counted before', async () => {
    const channel = freshChannel();
    const first = funnelMessage({ type: 'view', page: 'landing' }, { channel });
    await consume([first]);
    await consume([first, funnelMessage({ type: 'view', page: 'landing' }, { channel })]);
    expect(await dailyCounts(channel)).toEqual({ 'view:landing': 2 });
  });

  it('counts an id that appears twice in one batch once', async () => {
    const channel = freshChannel();
    const message = funnelMessage({ type: 'open', method: 'referrer' }, { channel });
    await consume([message, message]);
    expect(await dailyCounts(channel)).toEqual({ 'open:referrer': 1 });
  });

  it('keeps one visitor row per visitor, day and dimensions', async () => {
    const channel = freshChannel();
    await consume([
      funnelMessage({ type: 'view', page: 'landing' }, { channel }, { visitor: 'a' }),
      funnelMessage({ type: 'view', page: 'landing' }, { channel }, { visitor: 'a' }),
      funnelMessage({ type: 'tap', action: 'download' }, { channel }, { visitor: 'a' }),
      funnelMessage({ type: 'view', page: 'landing' }, { channel }, { visitor: 'b' }),
      funnelMessage({ type: 'view', page: 'landing' }, { channel }, { visitor: 'a', day: '2026-11-21' }),
    ]);
    expect(await visitorRows(channel)).toBe(3);
  });

  it('asks for the whole batch again when D1 fails, and counts it when delivered again', async () => {
    const channel = freshChannel();
    const messages = [funnelMessage({ type: 'view', page: 'short' }, { channel })];
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failed = await consume(messages, { ...env, FUNNEL_DB: failingDb() });
    expect(logged).toHaveBeenCalledWith('Funnel batch not written, retrying', 'D1 unavailable (injected)');
    logged.mockRestore();
    expect(failed.ackAll).toBe(false);
    expect(failed.retryBatch.retry).toBe(true);
    expect(await dailyCounts(channel)).toEqual({});
    await consume(messages);
    expect(await dailyCounts(channel)).toEqual({ 'view:short': 1 });
  });

  it('drops a malformed message, logged, and counts the rest', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const channel = freshChannel();
    const result = await consume([
      { v: 1, id: 'bad', day: 'yesterday', event: { type: 'view', page: 'landing' }, dims: {} },
      funnelMessage({ type: 'view', page: 'carrier' }, { channel }),
    ]);
    expect(result.ackAll).toBe(true);
    expect(await dailyCounts(channel)).toEqual({ 'view:carrier': 1 });
    expect(logged).toHaveBeenCalledWith('Funnel message dropped', expect.stringContaining('yesterday'));
    logged.mockRestore();
  });

  it('writes a batch of 100 events of 100 different dimensions in 5 statements', async () => {
    const channel = freshChannel();
    const messages: FunnelMessage[] = Array.from({ length: 100 }, (_, at) =>
      funnelMessage({ type: 'view', page: 'landing' }, { channel, inviter: `i${at}` }, { visitor: `v${at}` }),
    );
    const { db, statements } = countingDb(env.FUNNEL_DB);
    await writeRollup(db, messages);
    expect(statements()).toBe(5);
    expect(await dailyCounts(channel)).toEqual({ 'view:landing': 100 });
  });

  it('leaves a racing delivery of the same ids to a retry rather than count them twice', async () => {
    const channel = freshChannel();
    const message = funnelMessage({ type: 'view', page: 'landing' }, { channel });
    // The race: the first delivery's read found nothing, then another delivery recorded the id.
    await env.FUNNEL_DB.prepare('INSERT INTO funnel_messages (id, day) VALUES (?1, ?2)')
      .bind(message.id, message.day)
      .run();
    const racing = new Proxy(env.FUNNEL_DB, {
      get(target, name) {
        if (name === 'prepare') {
          return (query: string) =>
            query.startsWith('SELECT id FROM funnel_messages')
              ? target.prepare(`${query} AND 0`)
              : target.prepare(query);
        }
        const value: unknown = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(writeRollup(racing, [message])).rejects.toThrow();
    expect(await dailyCounts(channel)).toEqual({});
  });

  it('forgets the ids counted more than 30 days ago, and keeps the newer ones', async () => {
    const old = `old-${crypto.randomUUID()}`;
    const recent = `recent-${crypto.randomUUID()}`;
    await env.FUNNEL_DB.batch([
      env.FUNNEL_DB.prepare('INSERT INTO funnel_messages (id, day) VALUES (?1, ?2)').bind(old, '2026-10-25'),
      env.FUNNEL_DB.prepare('INSERT INTO funnel_messages (id, day) VALUES (?1, ?2)').bind(recent, '2026-10-26'),
    ]);
    await writeRollup(
      env.FUNNEL_DB,
      [funnelMessage({ type: 'view', page: 'landing' }, { channel: freshChannel() })],
      Date.UTC(2026, 10, 25),
    );
    const { results } = await env.FUNNEL_DB.prepare('SELECT id FROM funnel_messages WHERE id IN (?1, ?2)')
      .bind(old, recent)
      .all<{ id: string }>();
    expect(results.map((row) => row.id)).toEqual([recent]);
  });
});
