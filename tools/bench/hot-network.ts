/**
 * `npm run bench:lab -- --load`: one hot network (docs/benchmarks.md, docs/reliability.md). Many
 * devices behind one address (a campus or carrier NAT) tap, then some of them install without a
 * carrier. Time is compressed: the taps come as fast as the worker takes them rather than over ten
 * minutes, all inside the attribution window, which is the harder case for the network's one
 * Durable Object (every tap a candidate at once). Devices differ by phone, zone and language, so a
 * few are unique on the network and most have look-alikes. Printed: the object's p50/p99 for taps
 * and installs, the answers by kind, false matches (an install matched to another device's tap;
 * the bar is 0), 5xx (the bar is 0) and workerd's resident memory before and after.
 * `HOT_DEVICES` and `HOT_INSTALLS` set the counts (5,000 and 1,000).
 */
import { clickBody, installBody, newClickId, PHONES, type Phone } from '../../tests/fixtures/fake-app.ts';
import type { BenchSection } from './context.ts';
import { residentBytes } from './machine.ts';

const DEVICES = Number(process.env.HOT_DEVICES ?? 5000);
const INSTALLS = Number(process.env.HOT_INSTALLS ?? 1000);
const IN_FLIGHT = 16;
/** The one address every device is behind. */
const ADDRESS = '127.77.0.1';
const ZONES = ['Asia/Shanghai', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Europe/Paris', 'Asia/Tokyo'];
const LANGS = ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP', 'pt-BR', 'it-IT'];
const phones = Object.values(PHONES);

/** Device `i`: a fixture phone with its own zone and language, the same in the browser and the app. */
function device(i: number): Phone {
  const phone = phones[i % phones.length] ?? PHONES.iPhone15;
  const lang = LANGS[Math.floor(i / phones.length) % LANGS.length] ?? 'en-US';
  const tz = ZONES[Math.floor(i / (phones.length * LANGS.length)) % ZONES.length] ?? 'UTC';
  return { ...phone, tz, webLangs: [lang], appLangs: [lang] };
}

interface Sent {
  status: number;
  ms: number;
  body: string;
}

/** Runs `count` calls made by `make(i)`, `IN_FLIGHT` at a time. */
async function run(count: number, make: (i: number) => [string, RequestInit]): Promise<Sent[]> {
  const out: Sent[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        const i = next++;
        const [url, init] = make(i);
        const started = performance.now();
        const res = await fetch(url, init);
        const body = await res.text();
        out[i] = { status: res.status, ms: performance.now() - started, body };
      }
    }),
  );
  return out;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

const timing = (sent: Sent[]) => {
  const ms = sent.map((s) => s.ms);
  return `p50 ${percentile(ms, 0.5).toFixed(1)} ms, p99 ${percentile(ms, 0.99).toFixed(1)} ms`;
};

const post = (body: unknown, agent: string): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', 'cf-connecting-ip': ADDRESS, 'user-agent': agent },
});

const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 2 ** 20).toFixed(0)} MB`);

export const hotNetwork: BenchSection = {
  title: `One hot network: ${DEVICES} devices behind one address tap, then ${INSTALLS} install without carriers`,
  async run({ url, server }) {
    const rssBefore = residentBytes(server.pid);
    const clickIds = Array.from({ length: DEVICES }, () => newClickId());
    const taps = await run(DEVICES, (i) => {
      const phone = device(i);
      const body = { ...clickBody(phone, { visitorId: `hot-${i}` }), clickId: clickIds[i] };
      return [`${url}/api/a/click`, post(body, phone.web.agent)];
    });
    // Every fifth device installs, so the installs spread over every kind of device.
    const step = Math.max(1, Math.floor(DEVICES / INSTALLS));
    const installers = Array.from({ length: Math.min(INSTALLS, DEVICES) }, (_, k) => k * step);
    const installs = await run(installers.length, (k) => {
      const i = installers[k] ?? 0;
      return [`${url}/api/a/install`, post(installBody(device(i), `hot-${i}-${newClickId()}`), 'PebbleNotes/2.4')];
    });
    const rssAfter = residentBytes(server.pid);

    const answers: Record<string, number> = {};
    let falseMatches = 0;
    installs.forEach((sent, k) => {
      const answer = JSON.parse(sent.body || '{}') as { matched?: boolean; reason?: string; clickId?: string };
      const kind = answer.matched ? 'matched' : (answer.reason ?? `status ${sent.status}`);
      answers[kind] = (answers[kind] ?? 0) + 1;
      if (answer.matched && answer.clickId !== clickIds[installers[k] ?? -1]) falseMatches += 1;
    });
    const fiveXx = [...taps, ...installs].filter((s) => s.status >= 500).length;
    const statuses = (sent: Sent[]) =>
      Object.entries(
        sent.reduce<Record<number, number>>((acc, s) => {
          acc[s.status] = (acc[s.status] ?? 0) + 1;
          return acc;
        }, {}),
      )
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ');
    return [
      { name: `${DEVICES} taps from one address`, value: `${statuses(taps)}; ${timing(taps)}` },
      { name: `${installers.length} installs without carriers`, value: `${statuses(installs)}; ${timing(installs)}` },
      {
        name: 'Answers',
        value: Object.entries(answers)
          .map(([kind, n]) => `${kind} ${n}`)
          .join(', '),
      },
      { name: 'False matches', value: String(falseMatches), budget: { limit: '0', ok: falseMatches === 0 } },
      { name: '5xx', value: String(fiveXx), budget: { limit: '0', ok: fiveXx === 0 } },
      { name: 'workerd resident memory, before → after', value: `${mb(rssBefore)} → ${mb(rssAfter)}` },
    ];
  },
};
