/**
 * `npm run bench:lab -- --load`: bursts (docs/benchmarks.md). Taps at `BURST_CLICKS` a second and
 * installs at `BURST_INSTALLS` a second (1,000 and 300 by default), sent open-loop for
 * `BURST_SECONDS` (60) at one local worker, from 200 networks; half the installs carry a clipboard
 * carrier. Printed: what was sent and answered, 5xx (the bar is 0), p50/p99 per call and the rate
 * the machine actually reached (a shared 2-core machine falls short of the target; the row says by
 * how much). The bench's workerd drops funnel messages into a sink (workerd-config.ts), so "sent =
 * counted in D1" is proven inside workerd instead (tests/worker/reliability/engine-faults.test.ts and
 * funnel-end-to-end.test.ts), not here.
 */
import { clickBody, installBody, newClickId, PHONES } from '../../tests/fixtures/fake-app.ts';
import { benchToken } from './attribution.ts';
import type { BenchSection } from './context.ts';

const CLICKS = Number(process.env.BURST_CLICKS ?? 1000);
const INSTALLS = Number(process.env.BURST_INSTALLS ?? 300);
const SECONDS = Number(process.env.BURST_SECONDS ?? 60);
/** Requests started per tick: a tick every 10 ms. */
const TICK_MS = 10;
/** At most this many requests wait for an answer; past it a tick's requests are skipped and counted. */
const MAX_IN_FLIGHT = 512;
const phones = Object.values(PHONES);

interface Outcome {
  status: number;
  ms: number;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

function summary(name: string, outcomes: Outcome[], skipped: number, target: number) {
  const ms = outcomes.map((o) => o.ms);
  const fiveXx = outcomes.filter((o) => o.status >= 500).length;
  const ok = outcomes.filter((o) => o.status < 300).length;
  const rate = outcomes.length / SECONDS;
  return {
    name: `${name}: target ${target}/s for ${SECONDS} s`,
    value:
      `sent ${outcomes.length} (${rate.toFixed(0)}/s), 2xx ${ok}, 5xx ${fiveXx}, not sent (client saturated) ${skipped}; ` +
      `p50 ${percentile(ms, 0.5).toFixed(1)} ms, p99 ${percentile(ms, 0.99).toFixed(1)} ms`,
    budget: { limit: '0 5xx', ok: fiveXx === 0 },
  };
}

export const bursts: BenchSection = {
  title: `Bursts: taps at ${CLICKS}/s and installs at ${INSTALLS}/s for ${SECONDS} s`,
  async run({ url }) {
    const token = benchToken();
    const taps: Outcome[] = [];
    const installs: Outcome[] = [];
    const skipped = { taps: 0, installs: 0 };
    const pending = new Set<Promise<void>>();
    let n = 0;
    const send = (kind: 'taps' | 'installs') => {
      if (pending.size >= MAX_IN_FLIGHT) {
        skipped[kind] += 1;
        return;
      }
      n += 1;
      const phone = phones[n % phones.length] ?? PHONES.iPhone15;
      const address = `127.${1 + (n % 200)}.0.${1 + (n % 7)}`;
      const clickId = newClickId();
      const body =
        kind === 'taps'
          ? clickBody(phone, { d: token, visitorId: `burst-${n}` })
          : installBody(
              phone,
              `burst-${n}-${clickId}`,
              n % 2 ? { clipboard: `https://x/i/${clickId}.${token}` } : undefined,
            );
      const started = performance.now();
      const call = fetch(`${url}/api/a/${kind === 'taps' ? 'click' : 'install'}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: {
          'content-type': 'application/json',
          'cf-connecting-ip': address,
          'user-agent': kind === 'taps' ? phone.web.agent : 'PebbleNotes/2.4',
        },
      })
        .then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        })
        .catch(() => 599)
        .then((status) => {
          (kind === 'taps' ? taps : installs).push({ status, ms: performance.now() - started });
        });
      const tracked = call.finally(() => pending.delete(tracked));
      pending.add(tracked);
    };
    const ticks = (SECONDS * 1000) / TICK_MS;
    const due = { taps: 0, installs: 0 };
    const started = performance.now();
    for (let tick = 0; tick < ticks; tick++) {
      due.taps += (CLICKS * TICK_MS) / 1000;
      due.installs += (INSTALLS * TICK_MS) / 1000;
      for (; due.taps >= 1; due.taps -= 1) send('taps');
      for (; due.installs >= 1; due.installs -= 1) send('installs');
      const wait = started + (tick + 1) * TICK_MS - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    await Promise.all(pending);
    return [
      summary('POST /api/a/click', taps, skipped.taps, CLICKS),
      summary('POST /api/a/install', installs, skipped.installs, INSTALLS),
    ];
  },
};
