/**
 * The fault matrix's attribution rows (docs/reliability.md): both Durable Object namespaces (the
 * network buckets and the ledger) throw, hang past the budget, answer slowly, or fail once and
 * recover, passed as faulty bindings over the real ones. The app's calls answer within the budget
 * and never 5xx; a carrier is answered from its token alone; a look-alike install without its storage
 * is `unavailable`; an install is counted once, whichever call decided it. Each test runs on a fake
 * clock (faulty-bindings.ts): the budget, the catch-up's pauses and the hangs cost no real second,
 * and a time asserted is the fake time the worker waited.
 */
import { createMessageBatch } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeRollup } from '../../../worker/funnel/consume-batch.ts';
import type { FunnelMessage } from '../../../worker/funnel/events.ts';
import { ATTRIBUTION_BUDGET_MS } from '../../../worker/reliability/budget.ts';
import { consumeWebhookBatch } from '../../../worker/webhooks/consume.ts';
import type { WebhookMessage } from '../../../worker/webhooks/messages.ts';
import { APP_ID, clickBody, fakeApp, newClickId, PHONES, type Send, tap } from '../../fixtures/fake-app.ts';
import { campaign, carrierLink, issueClickId, network } from '../app-calls.ts';
import { expectConforms } from '../conforms.ts';
import {
  counting,
  drive,
  FAULTS,
  type Fault,
  faultyNamespace,
  Injector,
  recordingQueue,
  underWay,
  useFakeClock,
} from '../faulty-bindings.ts';
import { dailyCounts } from '../funnel-fixtures.ts';
import { fetchWorker, get, ORIGIN } from '../helpers.ts';

/** What an app may wait for an answer: the objects' budget; making the answer takes no fake time. */
const ANSWER_MS = ATTRIBUTION_BUDGET_MS;

/** Both Durable Object namespaces faulty the way `fault` says (one injector: `recovers` fails one call). */
function faultyObjects(fault: Fault): { bindings: Partial<Env>; injector: Injector } {
  const injector = new Injector(fault);
  return {
    injector,
    bindings: {
      CLICK_BUCKETS: faultyNamespace(env.CLICK_BUCKETS, injector),
      ATTRIBUTION_LEDGER: faultyNamespace(env.ATTRIBUTION_LEDGER, injector),
    },
  };
}

/** A Send over the worker with `bindings`; its work after the response is done when it resolves. */
const sender =
  (bindings: Partial<Env>): Send =>
  async (path, body, headers) => {
    const init = {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    };
    return (await drive(fetchWorker(`${ORIGIN}${path}`, init, { ...counting(env), ...bindings }))).value;
  };

/**
 * Measures the answer alone, in fake milliseconds: fetchWorker awaits the work after it, so time the
 * response itself; `after` drives that work to its end.
 */
async function timedCall(bindings: Partial<Env>, path: string, body: unknown, headers: Record<string, string>) {
  const { createExecutionContext, waitOnExecutionContext } = await import('cloudflare:test');
  const worker = (await import('../../../worker/index.ts')).default;
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
  const answer = async () => {
    const res = await worker.fetch(request, { ...env, ...counting(env), ...bindings }, ctx);
    // The body is read as an engine's answer: the clock waits for it, not for the work after it.
    return { res, text: await underWay(() => res.text()) };
  };
  const { value, ms } = await drive(answer());
  return { ...value, ms, after: () => drive(waitOnExecutionContext(ctx)) };
}

const appHeaders = (address: string) => ({
  'cf-connecting-ip': address,
  'user-agent': 'PebbleNotes/2.4 CFNetwork/1490.0.4 Darwin/23.5.0',
});

const installBody = (installId: string, carriers?: Record<string, string>) => ({
  app: APP_ID,
  installId,
  platform: 'ios',
  osVersion: '17.5.1',
  model: 'iPhone16,1',
  screen: { w: 393, h: 852, scale: 3 },
  tz: 'Asia/Shanghai',
  langs: ['zh-Hans-CN'],
  ...(carriers ? { carriers } : {}),
});

beforeAll(async () => {
  await get('/');
});

beforeEach(() => {
  useFakeClock();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const quiet = () => vi.spyOn(console, 'error').mockImplementation(() => {});

describe.each(FAULTS)('Durable Objects that %s', (fault) => {
  const at = network(31);

  it(`answer a tap's beacon 204 within ${ANSWER_MS} ms`, { timeout: 30_000 }, async () => {
    quiet();
    const { bindings } = faultyObjects(fault);
    const phone = PHONES.iPhone15;
    const headers = { 'cf-connecting-ip': at(1), 'user-agent': phone.web.agent };
    const call = await timedCall(bindings, '/api/a/click', clickBody(phone), headers);
    expect(call.res.status).toBe(204);
    expect(call.ms).toBeLessThanOrEqual(ANSWER_MS);
    await call.after();
  });

  it(`answer an install with a carrier from its token within ${ANSWER_MS} ms`, { timeout: 30_000 }, async () => {
    quiet();
    const { bindings } = faultyObjects(fault);
    const clickId = (await drive(issueClickId())).value;
    const carrier = `${clickId}.${campaign({ channel: `fault-${fault}` })}`;
    const call = await timedCall(
      bindings,
      '/api/a/install',
      installBody(`install-${crypto.randomUUID()}`, { clipboard: carrierLink(carrier) }),
      appHeaders(at(2)),
    );
    expect(call.res.status).toBe(200);
    expect(call.ms).toBeLessThanOrEqual(ANSWER_MS);
    const answer = JSON.parse(call.text);
    expect(answer).toMatchObject({ matched: true, method: 'clipboard', clickId, data: { channel: `fault-${fault}` } });
    await call.after();
  });

  it('credit no click id the worker never issued, its token real, while its storage cannot tell', {
    timeout: 30_000,
  }, async () => {
    quiet();
    const { bindings } = faultyObjects(fault);
    const carrier = `${newClickId()}.${campaign({ channel: `forged-${fault}` })}`;
    const call = await timedCall(
      bindings,
      '/api/a/install',
      installBody(`install-${crypto.randomUUID()}`, { clipboard: carrierLink(carrier) }),
      appHeaders(at(4)),
    );
    expect(call.res.status).toBe(200);
    expect(JSON.parse(call.text)).toEqual({ matched: false, reason: 'unavailable' });
    await call.after();
  });

  it(`answer an open with its carrier within ${ANSWER_MS} ms`, { timeout: 30_000 }, async () => {
    quiet();
    const { bindings } = faultyObjects(fault);
    const clickId = (await drive(issueClickId())).value;
    const call = await timedCall(
      bindings,
      '/api/a/open',
      { app: APP_ID, installId: `install-${crypto.randomUUID()}`, carrier: carrierLink(clickId) },
      appHeaders(at(3)),
    );
    expect(call.res.status).toBe(200);
    expect(call.ms).toBeLessThanOrEqual(ANSWER_MS);
    expect(JSON.parse(call.text)).toMatchObject({ matched: true, method: 'clipboard', clickId });
    await call.after();
  });

  it(`answer an app event 204 within ${ANSWER_MS} ms`, { timeout: 30_000 }, async () => {
    quiet();
    const { bindings } = faultyObjects(fault);
    const body = { app: APP_ID, installId: `install-${crypto.randomUUID()}`, name: 'register' };
    const call = await timedCall(bindings, '/api/a/event', body, appHeaders(at(4)));
    expect(call.res.status).toBe(204);
    expect(call.ms).toBeLessThanOrEqual(ANSWER_MS);
    await call.after();
  });
});

describe('a look-alike install without its storage', () => {
  const at = network(32);

  it.each(['throws', 'hangs'] as const)(
    `is {matched:false, reason:"unavailable"} within ${ANSWER_MS} ms when the objects %s`,
    { timeout: 30_000 },
    async (fault) => {
      quiet();
      const { bindings } = faultyObjects(fault);
      const call = await timedCall(
        bindings,
        '/api/a/install',
        installBody(`install-${crypto.randomUUID()}`),
        appHeaders(at(1)),
      );
      expect(call.res.status).toBe(200);
      expect(call.ms).toBeLessThanOrEqual(ANSWER_MS);
      expect(JSON.parse(call.text)).toEqual({ matched: false, reason: 'unavailable' });
      const sent = new Response(call.text, { status: 200, headers: { 'content-type': 'application/json' } });
      await expectConforms(sent, '/api/a/install');
      await call.after();
    },
  );

  it('is matched as usual when the objects are only slow', { timeout: 30_000 }, async () => {
    const { bindings } = faultyObjects('slow');
    const send = sender(bindings);
    const address = at(2);
    const { body, response } = tap(send, PHONES.iPhone15, address);
    expect((await response).status).toBe(204);
    const res = await fakeApp(send, PHONES.iPhone15, address).install(`install-${crypto.randomUUID()}`);
    expect(await res.json()).toMatchObject({ matched: true, method: 'probabilistic', clickId: body.clickId });
  });
});

describe('catching up when the objects come back', () => {
  const at = network(33);

  /** The install messages the funnel was sent for `channel`. */
  const installs = (sent: FunnelMessage[], channel: string) =>
    sent.filter((message) => message.event.type === 'install' && message.dims.channel === channel);

  it('counts a carrier install answered without its storage once, and a retry gets the stored answer', async () => {
    quiet();
    const channel = `catch-up-${crypto.randomUUID().slice(0, 8)}`;
    const funnel = recordingQueue(env.FUNNEL_QUEUE as Queue<FunnelMessage>);
    const clickId = (await drive(issueClickId())).value;
    const carriers = { clipboard: carrierLink(`${clickId}.${campaign({ channel })}`) };
    const installId = `install-${crypto.randomUUID()}`;
    // The objects fail the first call (the ledger's read), then answer: the catch-up decides the install.
    const { bindings, injector } = faultyObjects('recovers');
    const headers = appHeaders(at(1));
    const first = await sender({ ...bindings, FUNNEL_QUEUE: funnel.queue })(
      '/api/a/install',
      installBody(installId, carriers),
      headers,
    );
    expect(await first.json()).toMatchObject({ matched: true, method: 'clipboard', clickId });
    expect(injector.failed).toBe(1);
    // The app retries over healthy objects: the same install, not counted again.
    const again = await sender({ FUNNEL_QUEUE: funnel.queue })(
      '/api/a/install',
      installBody(installId, carriers),
      headers,
    );
    expect(await again.json()).toMatchObject({ matched: true, method: 'clipboard', clickId });
    const counted = installs(funnel.sent, channel);
    expect(counted).toHaveLength(1);
    expect(counted[0]?.event).toEqual({ type: 'install', method: 'clipboard' });
  });

  it('counts an install decided twice, its storage down past the catch-up then the app retrying, once in D1 and as one webhook event', {
    timeout: 30_000,
  }, async () => {
    quiet();
    const channel = `outage-${crypto.randomUUID().slice(0, 8)}`;
    const funnel = recordingQueue(env.FUNNEL_QUEUE as Queue<FunnelMessage>);
    const hooks = recordingQueue(env.WEBHOOK_QUEUE as Queue<WebhookMessage>);
    const queues = { FUNNEL_QUEUE: funnel.queue, WEBHOOK_QUEUE: hooks.queue };
    const clickId = (await drive(issueClickId())).value;
    const carriers = { clipboard: carrierLink(`${clickId}.${campaign({ channel })}`) };
    const body = installBody(`install-${crypto.randomUUID()}`, carriers);
    const headers = appHeaders(at(4));
    // Every call to the objects fails, the catch-up's retries too: counted with the app's answer.
    const { bindings } = faultyObjects('throws');
    const down = await sender({ ...bindings, ...queues })('/api/a/install', body, headers);
    expect(await down.json()).toMatchObject({ matched: true, method: 'clipboard', clickId });
    // The app retries once the objects are back: the ledger never stored the answer, so it is decided again.
    const back = await sender(queues)('/api/a/install', body, headers);
    expect(await back.json()).toMatchObject({ matched: true, method: 'clipboard', clickId });

    const sent = installs(funnel.sent, channel);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.id).toBe(sent[1]?.id);
    await drive(writeRollup(env.FUNNEL_DB, funnel.sent));
    expect((await dailyCounts(channel))['install:clipboard']).toBe(1);

    const events = hooks.sent.filter((message) => message.k === 'event' && message.type === 'install');
    expect(events).toHaveLength(2);
    expect(events[0]?.id).toBe(events[1]?.id);
    const batch = createMessageBatch(
      'lander-dev-webhooks',
      events.map((message, i) => ({ id: `w-${i}`, timestamp: new Date(), attempts: 1, body: message })),
    );
    await drive(consumeWebhookBatch(batch, env));
    const stored = await env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM webhook_events WHERE id = ?1')
      .bind(events[0]?.id)
      .first<{ n: number }>();
    expect(stored?.n).toBe(1);
  });

  it('records a tap whose write failed after the response, once', async () => {
    quiet();
    const address = at(2);
    const { bindings, injector } = faultyObjects('recovers');
    const { body, response } = tap(sender(bindings), PHONES.iPhone15, address);
    expect((await response).status).toBe(204);
    expect(injector.failed).toBe(1);
    // The click was recorded by the retry: the look-alike install finds it.
    const res = await fakeApp(sender({}), PHONES.iPhone15, address).install(`install-${crypto.randomUUID()}`);
    expect(await res.json()).toMatchObject({ matched: true, method: 'probabilistic', clickId: body.clickId });
  });

  it('counts a tap no retry could record as lost, where /api/losses shows it', { timeout: 30_000 }, async () => {
    quiet();
    const before = await lostClicks();
    const { bindings } = faultyObjects('throws');
    const { response } = tap(sender(bindings), PHONES.iPhone15, at(3));
    expect((await response).status).toBe(204);
    expect(await lostClicks()).toBe(before + 1);
  });
});

async function lostClicks(): Promise<number> {
  const { DEV_ADMIN_TOKEN } = await import('../../../worker/settings.ts');
  const { value: res } = await drive(
    fetchWorker(`${ORIGIN}/api/losses`, { headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` } }),
  );
  const body = (await expectConforms(res, '/api/losses', 'get')) as { lost: { clicks: number } };
  return body.lost.clicks;
}
