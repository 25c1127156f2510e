/**
 * The fault matrix's rows for pages, the operator's stores, the queues, the rate limiter, the queue
 * consumer and the daily export (docs/reliability.md). Each engine is a faulty binding laid over the
 * real one (faulty-bindings.ts): it throws, hangs past its budget, answers slowly, or fails once and
 * recovers. Pages answer 200 whatever counting, attribution or webhooks do; the operator's calls
 * answer 503 to retry, never 500; a queue send that fails is sent again or counted as lost; a batch
 * the consumer could not write is redelivered and counted once. Each test runs on a fake clock
 * (faulty-bindings.ts): the budgets, pauses, retries and hangs cost no real second, and a time
 * asserted is the fake time the worker waited.
 */
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runScheduled } from '../../../worker/exports/scheduled.ts';
import { consumeFunnelBatch } from '../../../worker/funnel/consume-batch.ts';
import type { FunnelMessage } from '../../../worker/funnel/events.ts';
import worker from '../../../worker/index.ts';
import {
  ATTRIBUTION_BUDGET_MS,
  LIMITER_BUDGET_MS,
  LINK_BUDGET_MS,
  R2_HEAD_BUDGET_MS,
} from '../../../worker/reliability/budget.ts';
import { readLosses } from '../../../worker/reliability/losses.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { consumeWebhookBatch } from '../../../worker/webhooks/consume.ts';
import { emitWebhook } from '../../../worker/webhooks/emit.ts';
import { UA } from '../../fixtures/agents.ts';
import { clickBody, installBody, PHONES } from '../../fixtures/fake-app.ts';
import { issueClickId } from '../app-calls.ts';
import {
  counting,
  drive,
  FAULTS,
  type Fault,
  faultyD1,
  faultyLimiter,
  faultyNamespace,
  faultyQueue,
  faultyR2,
  HANG_MS,
  Injector,
  recordingQueue,
  underWay,
  useFakeClock,
} from '../faulty-bindings.ts';
import { dailyCounts, freshChannel, funnelMessage } from '../funnel-fixtures.ts';
import { fetchWorker, get, handoffOf, ORIGIN } from '../helpers.ts';

/** A page waits on no engine: answered before the clock moves. */
const PAGE_MS = 0;
const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };

/** Every engine but KV faulty the way `fault` says, each with its own injector. */
function allFaulty(fault: Fault): Partial<Env> {
  const one = () => new Injector(fault);
  return {
    CLICK_BUCKETS: faultyNamespace(env.CLICK_BUCKETS, one()),
    ATTRIBUTION_LEDGER: faultyNamespace(env.ATTRIBUTION_LEDGER, one()),
    FUNNEL_DB: faultyD1(env.FUNNEL_DB, one()),
    FUNNEL_QUEUE: faultyQueue(env.FUNNEL_QUEUE, one()),
    WEBHOOK_QUEUE: faultyQueue(env.WEBHOOK_QUEUE, one()),
    APK_PARENTS: faultyR2(env.APK_PARENTS, one()),
    EXPORTS: faultyR2(env.EXPORTS, one()),
    CLIENT_LIMITER: faultyLimiter(env.CLIENT_LIMITER, one()),
    NETWORK_LIMITER: faultyLimiter(env.NETWORK_LIMITER, one()),
    NETWORK_INSTALL_WATCH: faultyLimiter(env.NETWORK_INSTALL_WATCH, one()),
  };
}

/**
 * The worker's answer with `bindings`, timed to its last byte in fake milliseconds; its work after
 * the response is driven to its end after.
 */
async function timed(path: string, bindings: Partial<Env>, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const headers = { 'user-agent': UA.iPhoneSafari, ...(init.headers as Record<string, string> | undefined) };
  const request = new Request(`${ORIGIN}${path}`, { ...init, headers });
  const answer = async () => {
    const res = await worker.fetch(request, { ...env, ...counting(env), ...bindings }, ctx);
    // The body is read as an engine's answer: the clock waits for it, not for the work after it.
    return { res, body: await underWay(() => res.text()) };
  };
  const { value, ms } = await drive(answer());
  await drive(waitOnExecutionContext(ctx));
  return { ...value, ms };
}

let slug = '';

beforeAll(async () => {
  await get('/');
  const res = await fetchWorker(`${ORIGIN}/api/links`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'faults' }),
  });
  slug = ((await res.json()) as { slug: string }).slug;
});

beforeEach(() => {
  useFakeClock();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const quiet = () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
};

describe('the matrix itself', () => {
  it('gives every wait of a request an end before a hanging call would answer', () => {
    const waits = [ATTRIBUTION_BUDGET_MS, LINK_BUDGET_MS, LIMITER_BUDGET_MS, R2_HEAD_BUDGET_MS, PAGE_MS];
    for (const budget of waits) expect(budget).toBeLessThan(HANG_MS);
  });
});

describe.each(FAULTS)('every engine but KV that %s', (fault) => {
  it(`leaves / and /landing 200 and complete within ${PAGE_MS} ms`, async () => {
    quiet();
    for (const path of ['/', '/landing']) {
      const { res, body, ms } = await timed(`${path}?fault=${fault}`, allFaulty(fault));
      expect(res.status, path).toBe(200);
      expect(body.trimEnd().endsWith('</html>'), path).toBe(true);
      expect(ms, path).toBeLessThanOrEqual(PAGE_MS);
    }
  });

  it(`answers /s/<slug> within ${LINK_BUDGET_MS} ms: the link's page, or the campaign page without it while D1 fails`, {
    timeout: 30_000,
  }, async () => {
    quiet();
    const bindings = allFaulty(fault);
    const { res, body, ms } = await timed(`/s/${slug}`, bindings);
    expect(ms).toBeLessThanOrEqual(LINK_BUDGET_MS);
    // Never "not found" for a link that exists: while D1 cannot tell, the campaign page without its campaign.
    expect(res.status).toBe(200);
    expect(body.trimEnd().endsWith('</html>')).toBe(true);
    const token = handoffOf(body).handoff.campaign.token;
    if (fault === 'slow') expect(token).toBeTruthy();
    else expect(token).toBeUndefined();
    if (fault === 'recovers') {
      const again = await timed(`/s/${slug}`, bindings);
      expect(again.res.status).toBe(200);
      expect(handoffOf(again.body).handoff.campaign.token).toBeTruthy();
    }
  });
});

describe.each(FAULTS)('a D1 that %s', (fault) => {
  it.each(['/api/stats', '/api/links', '/api/webhooks', '/api/losses'])(
    'answers %s 200, or 503 with Retry-After to try again: never 500',
    { timeout: 30_000 },
    async (path) => {
      quiet();
      const bindings = { FUNNEL_DB: faultyD1(env.FUNNEL_DB, new Injector(fault)) };
      const { res, body } = await timed(path, bindings, { headers: auth });
      if (fault === 'slow') return expect(res.status, body).toBe(200);
      expect(res.status, body).toBe(503);
      expect(JSON.parse(body)).toEqual({ error: expect.any(String) });
      if (fault === 'recovers') expect((await timed(path, bindings, { headers: auth })).res.status).toBe(200);
    },
  );
});

describe.each(FAULTS)('a rate limiter that %s', (fault) => {
  it(`lets a tap through within ${LIMITER_BUDGET_MS} ms`, { timeout: 30_000 }, async () => {
    quiet();
    const phone = PHONES.iPhone15;
    const { res, ms } = await timed(
      '/api/a/click',
      {
        CLIENT_LIMITER: faultyLimiter(env.CLIENT_LIMITER, new Injector(fault)),
        NETWORK_LIMITER: faultyLimiter(env.NETWORK_LIMITER, new Injector(fault)),
      },
      {
        method: 'POST',
        body: JSON.stringify(clickBody(phone)),
        headers: { 'content-type': 'application/json', 'user-agent': phone.web.agent, 'cf-connecting-ip': '41.0.0.1' },
      },
    );
    expect(res.status).toBe(204);
    expect(ms).toBeLessThanOrEqual(LIMITER_BUDGET_MS);
  });
});

describe('a funnel queue send', () => {
  it('refused once is sent again: the view is sent, nothing lost', async () => {
    quiet();
    const before = (await readLosses(env, 1))['funnel-events'];
    const recorded = recordingQueue(env.FUNNEL_QUEUE as Queue<FunnelMessage>);
    const queue = faultyQueue(recorded.queue, new Injector('recovers'));
    const { res } = await timed('/landing?send=retried', { FUNNEL_QUEUE: queue });
    expect(res.status).toBe(200);
    expect(recorded.sent.filter((message) => message.event.type === 'view')).toHaveLength(1);
    expect((await readLosses(env, 1))['funnel-events']).toBe(before);
  });

  it('refused twice is counted as lost, where /api/losses shows it', async () => {
    quiet();
    const before = (await readLosses(env, 1))['funnel-events'];
    const { res } = await timed('/landing?send=refused', {
      FUNNEL_QUEUE: faultyQueue(env.FUNNEL_QUEUE, new Injector('throws')),
    });
    expect(res.status).toBe(200);
    const shown = await timed('/api/losses', {}, { headers: auth });
    expect(JSON.parse(shown.body).lost['funnel-events']).toBe(before + 1);
  });
  it('hanging past its budget twice is counted as lost, never left to die with the request', {
    timeout: 30_000,
  }, async () => {
    quiet();
    const before = (await readLosses(env, 1))['funnel-events'];
    const queue = faultyQueue(env.FUNNEL_QUEUE, new Injector('hangs'));
    const { res, ms } = await timed('/landing?send=hangs', { FUNNEL_QUEUE: queue });
    expect(res.status).toBe(200);
    expect(ms).toBeLessThanOrEqual(PAGE_MS);
    expect((await readLosses(env, 1))['funnel-events']).toBe(before + 1);
  });
});

describe('a webhook queue send', () => {
  const click = { action: 'download', campaign: {}, link: null, os: 'iOS', country: '', lang: 'en' } as const;

  async function emit(queue: Queue): Promise<void> {
    const ctx = createExecutionContext();
    emitWebhook({ ...env, WEBHOOK_QUEUE: queue }, 'default', ctx, 'click', click);
    await drive(waitOnExecutionContext(ctx));
  }

  it('refused once is sent again, nothing lost', async () => {
    quiet();
    const before = (await readLosses(env, 1))['webhook-events'];
    const recorded = recordingQueue(env.WEBHOOK_QUEUE);
    await emit(faultyQueue(recorded.queue, new Injector('recovers')));
    expect(recorded.sent).toHaveLength(1);
    expect((await readLosses(env, 1))['webhook-events']).toBe(before);
  });

  it('refused twice is counted as lost', async () => {
    quiet();
    const before = (await readLosses(env, 1))['webhook-events'];
    await emit(faultyQueue(env.WEBHOOK_QUEUE, new Injector('throws')));
    expect((await readLosses(env, 1))['webhook-events']).toBe(before + 1);
  });
});

describe.each(FAULTS)('the funnel consumer over a D1 that %s', (fault) => {
  it('acknowledges each message it wrote, or asks for it again; redelivered, it is counted once', {
    timeout: 30_000,
  }, async () => {
    quiet();
    const channel = freshChannel();
    const messages = [
      funnelMessage({ type: 'view', page: 'download' }, { channel }),
      funnelMessage({ type: 'install', unmatched: 'unavailable' }, { channel }),
    ];
    const deliver = async (db: D1Database) => {
      const batch = createMessageBatch(
        'lander-dev-funnel',
        messages.map((body, at) => ({ id: `q-${at}`, timestamp: new Date(), attempts: 1, body })),
      );
      await drive(consumeFunnelBatch(batch, { ...env, FUNNEL_DB: db }));
      return getQueueResult(batch, createExecutionContext());
    };
    const first = await deliver(faultyD1(env.FUNNEL_DB, new Injector(fault)));
    // A D1 that answers again after the batch's failure takes the messages one by one.
    const written = fault === 'slow' || fault === 'recovers';
    expect(first.explicitAcks.sort()).toEqual(written ? ['q-0', 'q-1'] : []);
    expect(first.retryMessages.map((message) => message.msgId).sort()).toEqual(written ? [] : ['q-0', 'q-1']);
    // The queue redelivers what was not acknowledged; every delivery of a written message is counted once.
    const again = await deliver(env.FUNNEL_DB);
    expect(again.explicitAcks.sort()).toEqual(['q-0', 'q-1']);
    expect(await dailyCounts(channel)).toEqual({ 'view:download': 1, 'install:unmatched:unavailable': 1 });
  });
});

describe.each(['throws', 'recovers'] as Fault[])('the daily export over an R2 that %s', (fault) => {
  it('fails the run where it shows, counts it as lost, and a re-run writes the day', async () => {
    quiet();
    const before = (await readLosses(env, 1)).exports;
    const bindings = { ...env, EXPORTS: faultyR2(env.EXPORTS, new Injector(fault)) };
    const controller = createScheduledController({ scheduledTime: Date.now(), cron: '15 0 * * *' });
    await expect(drive(runScheduled(controller, bindings))).rejects.toThrow();
    expect((await readLosses(env, 1)).exports).toBe(before + 1);
    if (fault === 'recovers') expect((await drive(runScheduled(controller, bindings))).value).toBeUndefined();
  });
});

describe.each(FAULTS)('the app calls with every engine but KV that %s', (fault) => {
  // The rate limiter's budget, then attribution's: every engine is faulty, the limiters too.
  const APP_MS = LIMITER_BUDGET_MS + ATTRIBUTION_BUDGET_MS;
  const app = { 'user-agent': 'PebbleNotes/2.4 CFNetwork/1490.0.4 Darwin/23.5.0', 'cf-connecting-ip': '42.0.0.9' };
  const post = (path: string, body: unknown, bindings: Partial<Env>, headers = app) =>
    timed(path, bindings, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });

  it(`answer a tap, a carrier's install and an event within ${APP_MS} ms, never 5xx`, async () => {
    quiet();
    const phone = PHONES.iPhone15;
    // The page's tap carries an id the worker issued: it credits with every engine down.
    const tapped = clickBody(phone, { clickId: (await drive(issueClickId())).value });
    const click = await post('/api/a/click', tapped, allFaulty(fault), { ...app, 'user-agent': phone.web.agent });
    expect(click.res.status).toBe(204);
    expect(click.ms).toBeLessThanOrEqual(APP_MS);
    const installId = `install-${crypto.randomUUID()}`;
    const body = { ...installBody(phone, installId, { clipboard: `https://lander.test/i/${tapped.clickId}` }) };
    const install = await post('/api/a/install', body, allFaulty(fault));
    expect(install.res.status).toBe(200);
    expect(install.ms).toBeLessThanOrEqual(APP_MS);
    expect(JSON.parse(install.body)).toMatchObject({ matched: true, method: 'clipboard', clickId: tapped.clickId });
    const event = await post(
      '/api/a/event',
      { app: 'com.pebble.notes', installId, name: 'register' },
      allFaulty(fault),
    );
    expect(event.res.status).toBe(204);
    expect(event.ms).toBeLessThanOrEqual(APP_MS);
  });
});

describe.each(['throws', 'recovers'] as Fault[])('the webhook consumer over a D1 that %s', (fault) => {
  it('asks for an event again rather than dropping it; redelivered, it is recorded once', async () => {
    quiet();
    const { eventMessage } = await import('../../../worker/webhooks/emit.ts');
    const message = eventMessage(
      'click',
      { action: 'store', campaign: {}, link: null, os: 'iOS', country: '', lang: 'en' },
      Date.now(),
    );
    const deliver = async (db: D1Database) => {
      const batch = createMessageBatch('lander-dev-webhooks', [
        { id: 'w-0', timestamp: new Date(), attempts: 1, body: message },
      ]);
      await drive(consumeWebhookBatch(batch, { ...env, FUNNEL_DB: db }));
      return getQueueResult(batch, createExecutionContext());
    };
    const first = await deliver(faultyD1(env.FUNNEL_DB, new Injector(fault)));
    expect(first.retryMessages.map((retried) => retried.msgId)).toEqual(['w-0']);
    expect(first.ackAll).toBe(false);
    await deliver(env.FUNNEL_DB);
    await deliver(env.FUNNEL_DB);
    const rows = await env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM webhook_events WHERE id = ?1')
      .bind(message.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });
});
