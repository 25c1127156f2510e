/**
 * Fraud flags through the worker's own fetch (docs/fraud.md): `POST /api/a/identify` and the
 * install's Play referrer times checked like any body, only keyed hashes kept; the `flagged`
 * figures of `/api/stats` (JSON and CSV) with `fraud.exclude`; `GET /api/fraud`'s groups,
 * anomalies and drill-down. Each test works under its own channel or inviter.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import type { Dimensions } from '../../../worker/facts.ts';
import { keepInstall } from '../../../worker/fraud/store.ts';
import { writeRollup } from '../../../worker/funnel/consume-batch.ts';
import { NO_DIMENSIONS } from '../../../worker/funnel/events.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { DEMO } from '../../fixtures/config.ts';
import { APP_ID, fakeApp, installBody, PHONES, type Send, tap } from '../../fixtures/fake-app.ts';
import { freshChannel, funnelMessage } from '../funnel-fixtures.ts';
import { clearConfig, fetchWorker, storeConfig } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };
const post = (path: string, body: unknown) =>
  fetchWorker(`https://lander.test${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': '10.200.0.1' },
  });
const admin = (path: string, headers: Record<string, string> = {}) =>
  fetchWorker(`https://lander.test${path}`, { headers: { ...auth, ...headers } });

afterEach(clearConfig);

describe('POST /api/a/identify', () => {
  it('refuses a bad body with the field and keeps nothing', async () => {
    const installId = `install-${crypto.randomUUID()}`;
    for (const [body, error] of [
      [{ app: APP_ID, installId }, /^userId: /],
      [{ app: APP_ID, installId, userId: '' }, /^userId: must not be empty/],
      [{ app: APP_ID, installId, userId: 'x'.repeat(257) }, /^userId: at most 256/],
      [{ app: 'com.example.other', installId, userId: 'ann' }, /^app: "com.example.other" is not a configured app/],
      [{ app: APP_ID, installId, userId: 'ann', extra: 1 }, /^extra: /],
    ] as const) {
      const res = await post('/api/a/identify', body);
      expect(res.status).toBe(400);
      expect((await res.json<{ error: string }>()).error).toMatch(error);
    }
    expect((await fetchWorker('https://lander.test/api/a/identify')).status).toBe(405);
  });

  it('keeps only keyed hashes of the user and the install', async () => {
    const installId = `install-${crypto.randomUUID()}`;
    const userId = `user-${crypto.randomUUID()}`;
    expect((await post('/api/a/install', installBody(PHONES.iPhone15, installId))).status).toBe(200);
    expect((await post('/api/a/identify', { app: APP_ID, installId, userId })).status).toBe(204);
    const rows = await env.FUNNEL_DB.prepare('SELECT * FROM fraud_identities').all();
    expect(rows.results.length).toBeGreaterThan(0);
    const stored = JSON.stringify(rows.results);
    expect(stored).not.toContain(userId);
    expect(stored).not.toContain(installId);
  });
});

describe("the install's Play referrer times", () => {
  it('are checked like any field', async () => {
    const body = installBody(PHONES.galaxyS23, `install-${crypto.randomUUID()}`);
    for (const installReferrer of [
      { installBeginTimestampSeconds: -1 },
      { installBeginTimestampSeconds: 1.5 },
      { referrerClickTimestampSeconds: '1700000000' },
      { clickTime: 1 },
    ]) {
      const res = await post('/api/a/install', { ...body, installReferrer });
      expect(res.status).toBe(400);
      expect((await res.json<{ error: string }>()).error).toMatch(/^installReferrer\./);
    }
  });
});

/** Through the worker's fetch, its work after the response awaited: the flags are decided on return. */
const send: Send = (path, body, headers) =>
  fetchWorker(`https://lander.test${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A tap, then the fake app's install a moment later from the same address; answers the install id. */
async function tapThenInstall(address: string): Promise<string> {
  const { body, response } = tap(send, PHONES.iPhone15, address);
  expect((await response).status).toBe(204);
  const installId = `install-${crypto.randomUUID()}`;
  const app = fakeApp(send, PHONES.iPhone15, address);
  expect((await app.install(installId, { clipboard: `https://lander.test/i/${body.clickId}` })).status).toBe(200);
  return installId;
}

const lookUp = async (installId: string) =>
  (await admin(`/api/installs?app=${APP_ID}&installId=${installId}`)).json<{ flags: unknown[]; answer: unknown }>();

describe('the too-fast floor and the stored record', () => {
  it("the install look-up shows the ledger's flags; the app's answer carries none", async () => {
    const installId = await tapThenInstall('10.201.0.1');
    const kept = await lookUp(installId);
    expect(kept.flags).toEqual([
      { rule: 'too_fast', reason: expect.stringMatching(/^first launch \d+\.\d s after the click \(floor 10 s\)$/) },
    ]);
    expect(Object.keys(kept.answer as object)).not.toContain('flags');
  });

  it('reads fraud.too_fast_seconds from the configuration', async () => {
    await storeConfig({ ...DEMO, fraud: { too_fast_seconds: 0 } });
    expect((await lookUp(await tapThenInstall('10.201.0.2'))).flags).toEqual([]);
  });
});

/** `count` installs of a group on `day`, `rules` flagged on each, `network` for all. */
async function seed(dims: Partial<Dimensions>, day: string, count: number, rules: string[] = [], network = 'n1') {
  for (let n = 0; n < count; n += 1) {
    const id = `${dims.channel}-${dims.inviter}-${day}-${n}-${network}-${rules.join('+')}`;
    const flags = rules.map((rule) => ({ rule: rule as 'too_fast', reason: `${rule} because` }));
    await keepInstall(
      env.FUNNEL_DB,
      'default',
      {
        id,
        at: Date.parse(`${day}T10:00:00Z`) + n,
        dims: { ...NO_DIMENSIONS, ...dims },
        method: 'referrer',
        network,
        visitor: '',
      },
      flags,
    );
  }
  await writeRollup(
    env.FUNNEL_DB,
    Array.from({ length: count }, () => funnelMessage({ type: 'install', method: 'referrer' }, dims, { day })),
  );
}

describe('flagged beside the figures in /api/stats', () => {
  it('counts flagged installs by rule; an excluded rule leaves the counted installs, the raw count stays', async () => {
    const channel = freshChannel();
    await seed({ channel, inviter: 'ann' }, '2026-10-02', 3);
    await seed({ channel, inviter: 'ann' }, '2026-10-02', 2, ['too_fast']);
    await seed({ channel, inviter: 'bob' }, '2026-10-02', 1, ['too_fast', 'self_referral']);
    const query = `/api/stats?from=2026-10-01&to=2026-10-03&by=inviter&channel=${channel}`;
    const rows = async () => (await (await admin(query)).json<{ rows: Record<string, unknown>[] }>()).rows;
    expect(await rows()).toEqual([
      expect.objectContaining({
        key: 'ann',
        installs: 5,
        flagged: { installs: 2, byRule: { too_fast: 2 }, excluded: 0 },
        countedInstalls: 5,
      }),
      expect.objectContaining({
        key: 'bob',
        installs: 1,
        flagged: { installs: 1, byRule: { too_fast: 1, self_referral: 1 }, excluded: 0 },
        countedInstalls: 1,
      }),
    ]);
    await storeConfig({ ...DEMO, fraud: { exclude: ['self_referral'] } });
    const [ann, bob] = await rows();
    expect(ann).toMatchObject({ installs: 5, countedInstalls: 5 });
    expect(bob).toMatchObject({ installs: 1, flagged: { excluded: 1 }, countedInstalls: 0 });
    const csv = await (await admin(query, { accept: 'text/csv' })).text();
    const [header, first] = csv.split('\r\n');
    const cells = Object.fromEntries(header?.split(',').map((name, at) => [name, first?.split(',')[at]]) ?? []);
    expect(cells).toMatchObject({
      key: 'ann',
      installs: '5',
      'installs:flagged': '2',
      'flagged:too_fast': '2',
      'installs:counted': '5',
    });
  });
});

describe('GET /api/fraud', () => {
  it('finds a spike, a too-fast share and one network, and lists the flagged installs with reasons', async () => {
    const channel = freshChannel();
    for (let day = 1; day <= 14; day += 1) {
      await seed({ channel, inviter: 'zed' }, `2026-09-${String(day).padStart(2, '0')}`, 2, [], `n${day}`);
      await seed({ channel, inviter: 'amy' }, `2026-09-${String(day).padStart(2, '0')}`, 20, [], `n${day % 3}`);
    }
    // zed's day 15: 30 installs, 20 too fast, 27 from one network; amy's day 15 as her history.
    await seed({ channel, inviter: 'zed' }, '2026-09-15', 20, ['too_fast'], 'busy');
    await seed({ channel, inviter: 'zed' }, '2026-09-15', 7, [], 'busy');
    await seed({ channel, inviter: 'zed' }, '2026-09-15', 3, [], 'other');
    await seed({ channel, inviter: 'amy' }, '2026-09-15', 21, [], 'n1');
    await seed({ channel, inviter: 'amy' }, '2026-09-15', 19, [], 'n2');
    const res = await admin(`/api/fraud?from=2026-09-15&to=2026-09-15&channel=${channel}`);
    expect(res.status).toBe(200);
    const report = await res.json<{
      anomalies: { inviter: string; rule: string; observed: number; threshold: number }[];
      groups: Record<string, unknown>[];
      installs: { inviter: string; flags: { rule: string; reason: string }[] }[];
    }>();
    expect(
      report.anomalies.map(({ inviter, rule, observed, threshold }) => ({ inviter, rule, observed, threshold })),
    ).toEqual([
      { inviter: 'zed', rule: 'spike', observed: 30, threshold: 10 },
      { inviter: 'zed', rule: 'too_fast_share', observed: 20 / 30, threshold: 0.5 },
      { inviter: 'zed', rule: 'network_share', observed: 27 / 30, threshold: 0.8 },
    ]);
    expect(report.groups).toEqual([
      { channel, inviter: 'amy', installs: 40, flagged: 0, byRule: {} },
      { channel, inviter: 'zed', installs: 30, flagged: 20, byRule: { too_fast: 20 } },
    ]);
    expect(report.installs).toHaveLength(20);
    expect(report.installs[0]).toMatchObject({
      inviter: 'zed',
      flags: [{ rule: 'too_fast', reason: 'too_fast because' }],
    });
    const one = await admin(`/api/fraud?from=2026-09-15&to=2026-09-15&channel=${channel}&inviter=amy`);
    expect(await one.json()).toMatchObject({ anomalies: [], installs: [], groups: [{ inviter: 'amy' }] });
  });

  it('refuses a bad range and a caller without the token', async () => {
    const bad = await admin('/api/fraud?from=2026-09-15&to=2026-09-01');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'from: must not be after to' });
    expect((await fetchWorker('https://lander.test/api/fraud')).status).toBe(401);
  });
});
