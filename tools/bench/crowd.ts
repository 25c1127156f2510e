/**
 * `npm run bench:lab -- --crowd`: a crowd behind one address (docs/benchmarks.md, "A crowd behind one
 * address"; docs/attribution.md, "Rate limits"). `CROWD_DEVICES` phones (600) behind one
 * `CF-Connecting-IP`, as at a stadium or a street promotion's QR code, tap at `CROWD_RATE` a second
 * (10), open-loop; then each installs at the same rate. Each device does what the page and the app
 * do: it gets the click id the page would get (`issuedClickId`), reports its tap with its click id,
 * the campaign token, its own screen, zone, languages, visitor id and agent, and later installs —
 * four in five with the clipboard carrier `https://host/i/<clickId>.<token>`, every fifth with no
 * carrier, where the probabilistic match must answer `ambiguous` or `none` in a crowd, or match the
 * device's own tap. Printed: refused taps, refused installs, matched, false matches (an install
 * credited with another device's click); the bars are 0 refused and 0 false matches, and the run
 * exits non-zero past them. The server binds the Rate Limiting bindings (serve.ts `rateLimits`).
 */
import { toBase64Url } from '../../shared/base64url.ts';
import { clickBody, installBody, PHONES, type Phone } from '../../tests/fixtures/fake-app.ts';
import { benchToken } from './attribution.ts';
import type { BenchRow, BenchSection } from './context.ts';

/** The one address every device is behind. */
const ADDRESS = '127.66.0.1';
const APP_AGENT = 'PebbleNotes/2.4 CFNetwork/1490.0.4 Darwin/23.5.0';
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

/** What a crowd run found. */
export interface CrowdResult {
  devices: number;
  /** Calls of the page (`/api/a/click-ids`, `/api/a/click`) answered 429. */
  refusedTaps: number;
  /** Installs answered 429. */
  refusedInstalls: number;
  /** Any other answer that is not the page's or the app's success (a 5xx, a 400), by status. */
  failed: Record<number, number>;
  /** Installs credited with their own device's click. */
  matched: number;
  /** Installs credited with another device's click: the bar is 0. */
  falseMatches: number;
  /** The answers of the installs without a carrier, by kind (`matched`, `ambiguous`, `none`, …). */
  withoutCarrier: Record<string, number>;
  /** Whether the worker issued the click ids (`GET /api/a/click-ids`) or the devices made them. */
  clickIdsIssued: boolean;
  seconds: number;
}

const headersOf = (agent: string, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'cf-connecting-ip': ADDRESS,
  'user-agent': agent,
  ...extra,
});

/**
 * The click id the page would get for its tap: one of those `GET /api/a/click-ids` issues, or, where
 * the worker has no such route yet (404), 128 random bits in URL-safe base64, as the page makes one
 * itself. `null` with the status when the call was refused.
 */
export async function issuedClickId(
  url: string,
  agent: string,
  visitorId: string,
): Promise<{ clickId: string | null; status: number; issued: boolean }> {
  const res = await fetch(`${url}/api/a/click-ids`, { headers: headersOf(agent, { cookie: `user_id=${visitorId}` }) });
  const text = await res.text();
  if (res.status === 404) {
    return { clickId: toBase64Url(crypto.getRandomValues(new Uint8Array(16))), status: 404, issued: false };
  }
  if (res.status !== 200) return { clickId: null, status: res.status, issued: false };
  const { clickIds } = JSON.parse(text) as { clickIds: string[] };
  return { clickId: clickIds[0] ?? null, status: 200, issued: true };
}

/** Runs `work(i)` for `count` items, the i-th started `i / rate` seconds after the first (open-loop). */
async function paced(count: number, rate: number, work: (i: number) => Promise<void>): Promise<void> {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const due = start + (i * 1000) / rate;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      await work(i);
    }),
  );
}

/** One crowd of `devices` behind one address against the worker at `url`, tapping and installing at `rate` a second. */
export async function runCrowd(url: string, devices: number, rate: number): Promise<CrowdResult> {
  const started = performance.now();
  const token = benchToken();
  const host = new URL(url).host;
  const result: CrowdResult = {
    devices,
    refusedTaps: 0,
    refusedInstalls: 0,
    failed: {},
    matched: 0,
    falseMatches: 0,
    withoutCarrier: {},
    clickIdsIssued: false,
    seconds: 0,
  };
  const fail = (status: number) => {
    result.failed[status] = (result.failed[status] ?? 0) + 1;
  };
  const clickIds: (string | null)[] = new Array(devices).fill(null);
  // A run's own visitor and install ids: a second run on the same server is a new crowd.
  const run = toBase64Url(crypto.getRandomValues(new Uint8Array(6)));

  await paced(devices, rate, async (i) => {
    const phone = device(i);
    const visitorId = `crowd-${run}-${i}`;
    const issued = await issuedClickId(url, phone.web.agent, visitorId);
    if (issued.status === 429) result.refusedTaps += 1;
    else if (issued.status !== 200 && issued.status !== 404) fail(issued.status);
    if (issued.issued) result.clickIdsIssued = true;
    if (!issued.clickId) return;
    const body = clickBody(phone, { clickId: issued.clickId, d: token, visitorId });
    const res = await fetch(`${url}/api/a/click`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: headersOf(phone.web.agent),
    });
    await res.arrayBuffer();
    if (res.status === 429) result.refusedTaps += 1;
    else if (res.status !== 204) fail(res.status);
    else clickIds[i] = issued.clickId;
  });

  await paced(devices, rate, async (i) => {
    const own = clickIds[i];
    const carrier = i % 5 !== 4;
    const carriers = carrier && own ? { clipboard: `https://${host}/i/${own}.${token}` } : undefined;
    const res = await fetch(`${url}/api/a/install`, {
      method: 'POST',
      body: JSON.stringify(installBody(device(i), `crowd-${run}-install-${i}`, carriers)),
      headers: headersOf(APP_AGENT),
    });
    const text = await res.text();
    if (res.status === 429) {
      result.refusedInstalls += 1;
      return;
    }
    if (res.status !== 200) return fail(res.status);
    const answer = JSON.parse(text) as { matched: boolean; clickId?: string; reason?: string };
    if (answer.matched && answer.clickId === own) result.matched += 1;
    else if (answer.matched) result.falseMatches += 1;
    if (!carriers) {
      const kind = answer.matched ? (answer.clickId === own ? 'matched' : 'false match') : (answer.reason ?? '?');
      result.withoutCarrier[kind] = (result.withoutCarrier[kind] ?? 0) + 1;
    }
  });
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

const counts = (record: Record<string | number, number>) =>
  Object.entries(record)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ') || 'none';

/** The rows a crowd run prints. */
export function crowdRows(result: CrowdResult, rate: number): BenchRow[] {
  const carriers = result.devices - Math.floor(result.devices / 5);
  return [
    {
      name: `${result.devices} devices, one address, ${rate} taps/s`,
      value: `${result.seconds.toFixed(0)} s in all; click ids ${result.clickIdsIssued ? 'issued by the worker' : 'made by the devices (no /api/a/click-ids)'}`,
    },
    {
      name: 'Refused taps (429)',
      value: String(result.refusedTaps),
      budget: { limit: '0', ok: result.refusedTaps === 0 },
    },
    {
      name: 'Refused installs (429)',
      value: String(result.refusedInstalls),
      budget: { limit: '0', ok: result.refusedInstalls === 0 },
    },
    {
      name: 'Other failures, by status',
      value: counts(result.failed),
      budget: { limit: 'none', ok: Object.keys(result.failed).length === 0 },
    },
    { name: `Matched (${carriers} with a carrier)`, value: String(result.matched) },
    { name: 'Installs without a carrier', value: counts(result.withoutCarrier) },
    {
      name: 'False matches',
      value: String(result.falseMatches),
      budget: { limit: '0', ok: result.falseMatches === 0 },
    },
  ];
}

/** The crowd mode's section: `devices` at `rate` taps a second; a run past its bars exits non-zero. */
export function crowd(
  devices = Number(process.env.CROWD_DEVICES ?? 600),
  rate = Number(process.env.CROWD_RATE ?? 10),
): BenchSection {
  return {
    title: `A crowd behind one address: ${devices} devices tap at ${rate}/s, then install`,
    async run({ url }) {
      const rows = crowdRows(await runCrowd(url, devices, rate), rate);
      if (rows.some((row) => row.budget && !row.budget.ok)) process.exitCode = 1;
      return rows;
    },
  };
}
