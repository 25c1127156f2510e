/**
 * The worker's half of the SDK conformance cases (sdk/conformance/README.md): every exchange a case
 * marks `real` is replayed against the worker inside workerd — the request the SDKs must send gets
 * the status and the answer the case says the app is handed. Each case runs with its own install ids
 * and network.
 */
import { exports } from 'cloudflare:workers';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import type { ConformanceCase, Exchange } from '../../fixtures/conformance.ts';
import { issuedClickId, PHONES, registerTestDevice, type Send, tap } from '../../fixtures/fake-app.ts';
import { ORIGIN } from '../helpers.ts';

const cases = inject('conformanceCases');
/** `value` with each `@id:<name>` replaced by this run's id for that name. */
function withIds(value: unknown, ids: (name: string) => string): unknown {
  if (typeof value === 'string' && value.startsWith('@id:')) return ids(value.slice(4));
  if (Array.isArray(value)) return value.map((item) => withIds(item, ids));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withIds(item, ids)]));
  }
  return value;
}

/**
 * The latest event time (`at`, the SDK's clock from 0) of `exchanges`' events: the replay moves every
 * `at` by one shift so this one is the moment of the replay and the others keep their distance before it.
 */
function latestAt(exchanges: Exchange[]): number {
  const ats = exchanges
    .filter((exchange) => exchange.request.path === '/api/a/event')
    .flatMap((exchange) => {
      const body = exchange.request.body as { at?: number; events?: { at?: number }[] };
      return [body.at, ...(body.events ?? []).map((event) => event.at)];
    })
    .filter((at) => at !== undefined);
  return Math.max(0, ...ats);
}

/** An event body with each `at` moved by `shift` ms. */
function shifted(body: unknown, shift: number): unknown {
  const moved = (event: { at?: number }) => (event.at === undefined ? event : { ...event, at: event.at + shift });
  const { events, ...rest } = body as { at?: number; events?: { at?: number }[] };
  return events ? { ...moved(rest), events: events.map(moved) } : moved(rest);
}

/** POSTs `body` as JSON to the worker inside workerd. */
const post: Send = (path, body, headers) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );

const realExchanges = (kase: ConformanceCase): Exchange[] =>
  kase.steps.flatMap((step) => step.exchanges ?? []).filter((exchange) => exchange.real);

/**
 * The exchanges with each click id an answer names swapped for one the worker issued now, from
 * `address`: the cases spell fixed ids, and a click id credits only if the worker issued it, and only
 * one install (docs/attribution.md, "Which clicks credit"). Only a click id a request carries is
 * swapped: one only an answer names is the worker's own (Meta's touch id). Returns the swaps too.
 */
async function withIssuedClicks(
  exchanges: Exchange[],
  address: string,
): Promise<{ exchanges: Exchange[]; issued: Map<string, string> }> {
  let text = JSON.stringify(exchanges);
  const requests = JSON.stringify(exchanges.map((exchange) => exchange.request));
  const named = new Set(
    [...text.matchAll(/"clickId":"([A-Za-z0-9_-]{22})"/g)]
      .map((match) => match[1] ?? '')
      .filter((clickId) => requests.includes(clickId)),
  );
  const issued = new Map<string, string>();
  for (const clickId of named) {
    const id = await issuedClickId((path) =>
      exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers: { 'cf-connecting-ip': address } })),
    );
    issued.set(clickId, id);
    text = text.replaceAll(clickId, id);
  }
  return { exchanges: JSON.parse(text) as Exchange[], issued };
}

/** Records the case's taps on the page (its `taps`), each at its own time, with the issued click ids. */
async function recordTaps(kase: ConformanceCase, issued: Map<string, string>, address: string): Promise<void> {
  for (const recorded of kase.taps ?? []) {
    vi.setSystemTime(recorded.at);
    const clickId = issued.get(recorded.clickId) ?? recorded.clickId;
    const { response } = tap(post, PHONES.galaxyS23, address, { clickId, d: recorded.d });
    expect((await response).status).toBe(204);
  }
}

afterEach(() => {
  vi.useRealTimers();
});

const withReal = cases.filter((kase) => realExchanges(kase).length > 0);

it('the cases name real exchanges of every call: install, open, event, identify and links', () => {
  const paths = new Set(withReal.flatMap((kase) => realExchanges(kase).map((exchange) => exchange.request.path)));
  expect([...paths].sort()).toEqual([
    '/api/a/event',
    '/api/a/identify',
    '/api/a/install',
    '/api/a/links',
    '/api/a/open',
  ]);
});

describe.each([...new Set(withReal.map((kase) => kase.file))])('%s', (file) => {
  const inFile = withReal.filter((kase) => kase.file === file);
  it.for(inFile.map((kase, index) => [kase.name, kase, index] as const))('%s', async ([, kase, index]) => {
    const run = crypto.randomUUID().slice(0, 8);
    const ids = (name: string) => `conf-${run}-${name}`;
    // A network of its own: the probabilistic path finds no one else's taps, and no rate limit is shared.
    const address = `198.51.${100 + (index % 100)}.${1 + Math.floor(Math.random() * 250)}`;
    // A case with its own clock (Meta's window counts from the referrer's time) runs at its `now`.
    if (kase.now !== undefined) {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Math.min(kase.now, ...(kase.taps ?? []).map((recorded) => recorded.at)));
    }
    const { exchanges, issued } = await withIssuedClicks(realExchanges(kase), address);
    await recordTaps(kase, issued, address);
    if (kase.now !== undefined) vi.setSystemTime(kase.now);
    // The SDKs' clock starts at 0; the worker takes an event's time within the last 30 days only.
    const shift = Date.now() - latestAt(exchanges);
    for (const exchange of exchanges) {
      const request =
        exchange.request.path === '/api/a/event' ? shifted(exchange.request.body, shift) : exchange.request.body;
      const body = withIds(request, ids) as { test?: boolean; app?: string; installId?: string };
      // A test device's calls are a test only once an operator registered it (docs/attribution.md).
      if (body.test === true && body.app && body.installId) await registerTestDevice(post, body.installId, body.app);
      const res = await post(exchange.request.path, body, { 'cf-connecting-ip': address });
      const expected = exchange.response;
      if (!('status' in expected)) throw new Error('a real exchange needs a status');
      const text = await res.text();
      expect(res.status, text).toBe(expected.status);
      if (expected.body === undefined) {
        expect(text).toBe('');
        continue;
      }
      // A test device's answer is the real one plus why it was given (docs/attribution.md); a case that
      // spells that `explain` is held to it, the others to the answer alone.
      const { explain, ...answer } = JSON.parse(text);
      const { explain: spelled, ...expectedAnswer } = expected.body as { explain?: unknown };
      expect(answer).toEqual(expectedAnswer);
      if (spelled !== undefined) expect(explain).toEqual(spelled);
      const sent = exchange.request.body as { test?: boolean } | undefined;
      expect(explain !== undefined).toBe(sent?.test === true);
    }
  });
});
