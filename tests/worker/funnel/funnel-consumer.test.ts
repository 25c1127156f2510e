/**
 * The funnel queue's consumer as a unit inside workerd (docs/operators.md): a batch in, D1 rows and
 * each message's acknowledgement or retry out.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { consumeFunnelBatch, writeRollup } from '../../../worker/funnel/consume-batch.ts';
import type { FunnelMessage } from '../../../worker/funnel/events.ts';
import { readStats } from '../../../worker/funnel/stats-query.ts';
import { readLosses } from '../../../worker/reliability/losses.ts';
import {
  countingDb,
  dailyCounts,
  failingDb,
  freshChannel,
  funnelMessage,
  refusingRowsOf,
  valueSums,
  visitorRows,
} from '../funnel-fixtures.ts';

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
  const result = await getQueueResult(batch, ctx);
  // Each message has its own fate: the batch as a whole is never acknowledged or retried.
  expect(result.ackAll).toBe(false);
  expect(result.retryBatch.retry).toBe(false);
  return {
    acked: [...result.explicitAcks].sort(),
    retried: result.retryMessages.map((message) => message.msgId).sort(),
  };
}

/** The queue's ids of a batch of `n` messages (batchOf). */
const all = (n: number): string[] => Array.from({ length: n }, (_, at) => `q-${at}`).sort();

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
    expect(result).toEqual({ acked: all(6), retried: [] });
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
    expect(again).toEqual({ acked: all(2), retried: [] });
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

  it('asks for every message again when D1 fails, and counts them when delivered again', async () => {
    const channel = freshChannel();
    const messages = [
      funnelMessage({ type: 'view', page: 'short' }, { channel }),
      funnelMessage({ type: 'tap', action: 'guide' }, { channel }),
    ];
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failed = await consume(messages, { ...env, FUNNEL_DB: failingDb() });
    expect(logged).toHaveBeenCalledWith('Funnel database not answering', 'D1 unavailable (injected)');
    logged.mockRestore();
    expect(failed).toEqual({ acked: [], retried: all(2) });
    expect(await dailyCounts(channel)).toEqual({});
    await consume(messages);
    expect(await dailyCounts(channel)).toEqual({ 'view:short': 1, 'tap:guide': 1 });
  });

  it('drops a malformed message, logged and counted as lost, and counts the rest', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = (await readLosses(env, 1))['funnel-malformed'];
    const channel = freshChannel();
    const result = await consume([
      { v: 1, id: 'bad', day: 'yesterday', event: { type: 'view', page: 'landing' }, dims: {} },
      funnelMessage({ type: 'view', page: 'carrier' }, { channel }),
      {
        ...funnelMessage({ type: 'view', page: 'carrier' }, { channel }),
        event: { type: 'event', name: 'Not A Name' },
      },
    ]);
    expect(result).toEqual({ acked: all(3), retried: [] });
    expect(await dailyCounts(channel)).toEqual({ 'view:carrier': 1 });
    expect(logged).toHaveBeenCalledWith('Funnel message dropped', expect.stringContaining('yesterday'));
    logged.mockRestore();
    expect((await readLosses(env, 1))['funnel-malformed']).toBe(before + 2);
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

  it("keeps a day's sum finite when values near the largest double arrive, and counts the batch", async () => {
    const channel = freshChannel();
    const huge = (value: number) => funnelMessage({ type: 'event', name: 'pay', value }, { channel });
    // Queued before the API bounded values: two finite values whose sum is Infinity, which D1 refuses.
    const result = await consume([
      huge(1.7e308),
      funnelMessage({ type: 'view', page: 'landing' }, { channel }),
      huge(1.7e308),
      huge(Number.POSITIVE_INFINITY),
      funnelMessage({ type: 'install', method: 'clipboard' }, { channel }),
    ]);
    expect(result).toEqual({ acked: all(5), retried: [] });
    expect(await dailyCounts(channel)).toEqual({ 'view:landing': 1, 'event:pay': 3, 'install:clipboard': 1 });
    // Each finite value held to ±1e12, as the API now bounds it; Infinity is no value and adds nothing.
    expect(await valueSums(channel)).toEqual({ 'event:pay': 2e12 });
    await consume([huge(-1.7e308), huge(Number.NaN)]);
    expect(await dailyCounts(channel)).toEqual({ 'view:landing': 1, 'event:pay': 5, 'install:clipboard': 1 });
    expect(await valueSums(channel)).toEqual({ 'event:pay': 1e12 });
  });

  it('holds a stored sum within ±1e18 whatever is added to it, and a read of such rows stays finite', async () => {
    const channel = freshChannel();
    const row = funnelMessage({ type: 'event', name: 'pay' }, { channel });
    // Rows stored before the bound may hold any double.
    for (const day of ['2026-11-20', '2026-11-21'])
      await env.FUNNEL_DB.prepare(
        "INSERT INTO funnel_daily (day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, metric, count, value_sum) VALUES (?1, ?2, '', '', '', '', '', '', '', '', 'event:pay', 1, 1.7e308)",
      )
        .bind(day, channel)
        .run();
    const stats = await readStats(env.FUNNEL_DB, 'default', {
      from: '2026-11-20',
      to: '2026-11-21',
      by: 'channel',
      channel,
    });
    expect(stats.rows[0]?.values).toEqual({ pay: 2e18 });
    await writeRollup(env.FUNNEL_DB, [{ ...row, event: { type: 'event', name: 'pay', value: 1e12 } }]);
    const stored = await env.FUNNEL_DB.prepare(
      "SELECT value_sum FROM funnel_daily WHERE channel = ?1 AND day = '2026-11-20'",
    )
      .bind(channel)
      .first<{ value_sum: number }>();
    expect(stored?.value_sum).toBe(1e18);
  });

  it('retries alone a message D1 refuses, and acknowledges and counts the rest of its batch', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const channel = freshChannel();
    const poison = funnelMessage(
      { type: 'tap', action: 'store' },
      { channel },
      { id: `poison-${crypto.randomUUID()}` },
    );
    const messages = [
      funnelMessage({ type: 'view', page: 'landing' }, { channel }),
      poison,
      funnelMessage({ type: 'install', method: 'apk' }, { channel }),
      funnelMessage({ type: 'event', name: 'signup' }, { channel }),
    ];
    const result = await consume(messages, { ...env, FUNNEL_DB: refusingRowsOf(env.FUNNEL_DB, poison.id) });
    logged.mockRestore();
    expect(result).toEqual({ acked: ['q-0', 'q-2', 'q-3'], retried: ['q-1'] });
    expect(await dailyCounts(channel)).toEqual({ 'view:landing': 1, 'install:apk': 1, 'event:signup': 1 });
    // The queue delivers the retried message again; the others, acknowledged, never come back.
    expect(await consume([poison])).toEqual({ acked: all(1), retried: [] });
    expect(await dailyCounts(channel)).toEqual({
      'view:landing': 1,
      'tap:store': 1,
      'install:apk': 1,
      'event:signup': 1,
    });
  });
});
