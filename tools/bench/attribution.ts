/**
 * Attribution's calls on workerd (docs/attribution.md): server CPU per `POST /api/a/click` and per
 * `POST /api/a/install` beside a static file's, and the install answer's latency as an app sees it.
 * Every request is its own: a fresh click id, one of 200 networks, a fresh install id; half the
 * installs carry a clipboard carrier, the rest ask for the probabilistic match. The production
 * worker needs its secrets for this; the bench gives it its own (`BENCH_SECRETS`).
 */

import type { ClickBody } from '../../shared/attribution.ts';
import { clickBody, installBody, newClickId, PHONES, type Phone } from '../../tests/fixtures/fake-app.ts';
import { encryptToken } from '../../worker/campaign/token.ts';
import type { BenchRow, BenchSection } from './context.ts';
import { STATIC_ASSET } from './context.ts';
import { cpuSeconds } from './machine.ts';

/** Secrets the production worker reads, set for the bench's server only. */
export const BENCH_SECRETS = { ATTRIBUTION_SALT: 'bench-attribution-salt', DECODE_KEY: 'BenchDecodeKey16' };

const REQUESTS = 2000;
const CONCURRENCY = 16;
const phones = Object.values(PHONES);

interface Call {
  path: string;
  init: RequestInit;
}

/** Runs `calls` with `CONCURRENCY` in flight; returns each call's milliseconds and the server CPU per call. */
async function run(url: string, pid: number, calls: Call[]): Promise<{ latencies: number[]; cpuMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const before = cpuSeconds(pid) ?? 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < calls.length) {
        const call = calls[next++] as Call;
        const start = performance.now();
        const res = await fetch(`${url}${call.path}`, call.init);
        await res.arrayBuffer();
        if (res.status >= 300) throw new Error(`${call.path} answered ${res.status}`);
        latencies.push(performance.now() - start);
      }
    }),
  );
  const after = cpuSeconds(pid) ?? 0;
  return { latencies, cpuMs: ((after - before) * 1000) / calls.length };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

function post(path: string, body: unknown, address: string, agent: string): Call {
  return {
    path,
    init: {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': address, 'user-agent': agent },
    },
  };
}

/** A campaign token the bench's worker reads (its `DECODE_KEY`), as `npm run link` mints one. */
export function benchToken(): string {
  return encryptToken(JSON.stringify({ channel: 'bench', inviter: 'ann' }), BENCH_SECRETS.DECODE_KEY);
}

/** A page's click beacon as the bench sends it: the phone, the address it comes from, the body. */
export interface BenchClick {
  phone: Phone;
  address: string;
  body: ClickBody;
}

/** `count` clicks by the fixture phones in turn, from 200 networks, each a fresh click id and visitor. */
export function benchClicks(count: number, token = benchToken()): BenchClick[] {
  const address = (i: number) => `10.${Math.floor((i % 200) / 100)}.${i % 100}.${1 + (i % 7)}`;
  return Array.from({ length: count }, (_, i) => {
    const phone = phones[i % phones.length] ?? PHONES.iPhone15;
    return { phone, address: address(i), body: clickBody(phone, { d: token, visitorId: `v${i}` }) };
  });
}

export const attribution: BenchSection = {
  title: 'Attribution calls on workerd (Durable Objects on local disk)',
  async run({ url, server }) {
    const token = benchToken();
    const clicks = benchClicks(REQUESTS, token);
    const statics = Array.from({ length: REQUESTS }, () => ({ path: STATIC_ASSET, init: {} }));
    // Warm-up: the modules, the JIT and the first Durable Objects.
    await run(
      url,
      server.pid,
      clicks.slice(0, 200).map((c) => post('/api/a/click', c.body, c.address, c.phone.web.agent)),
    );
    await run(url, server.pid, statics.slice(0, 200));

    const clickRun = await run(
      url,
      server.pid,
      clicks.map((c) => post('/api/a/click', { ...c.body, clickId: newClickId() }, c.address, c.phone.web.agent)),
    );
    const installs = clicks.map((c, i) =>
      post(
        '/api/a/install',
        installBody(
          c.phone,
          `bench-${i}-${newClickId()}`,
          i % 2 ? { clipboard: `https://x/i/${c.body.clickId}.${token}` } : undefined,
        ),
        c.address,
        'PebbleNotes/2.4',
      ),
    );
    const installRun = await run(url, server.pid, installs);
    const staticRun = await run(url, server.pid, statics);
    const rows: BenchRow[] = [
      {
        name: `POST /api/a/click (${REQUESTS}, ${CONCURRENCY} in flight)`,
        value: `${clickRun.cpuMs.toFixed(3)} ms CPU/request`,
      },
      {
        name: 'POST /api/a/install (half carriers, half probabilistic)',
        value: `${installRun.cpuMs.toFixed(3)} ms CPU/request`,
      },
      { name: `GET ${STATIC_ASSET} (static, same run)`, value: `${staticRun.cpuMs.toFixed(3)} ms CPU/request` },
      { name: 'click CPU ÷ static CPU', value: (clickRun.cpuMs / staticRun.cpuMs).toFixed(2) },
      { name: 'install CPU ÷ static CPU', value: (installRun.cpuMs / staticRun.cpuMs).toFixed(2) },
    ];
    // The app's view: one install at a time, as a first launch sends it.
    const single = await (async () => {
      const times: number[] = [];
      for (const call of installs.slice(0, 300)) {
        const fresh = {
          ...call,
          init: { ...call.init, body: String(call.init.body).replace(/bench-\d+-/, `solo-${newClickId()}-`) },
        };
        times.push(...(await run(url, server.pid, [fresh])).latencies);
      }
      return times;
    })();
    const p50 = percentile(single, 0.5);
    rows.push({
      name: 'install answer, one at a time: p50 / p99',
      value: `${p50.toFixed(2)} ms / ${percentile(single, 0.99).toFixed(2)} ms`,
      budget: { limit: 'p50 ≤ 20 ms', ok: p50 <= 20 },
    });
    return rows;
  },
};
