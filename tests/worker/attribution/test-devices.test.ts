/**
 * Test devices (docs/attribution.md, "Test devices"): an install or open with `test: true` from a
 * registered device is answered exactly as a real one, never counted in the funnel (nor are its
 * events), and listed by `GET /api/test-installs` for the console's Test installs panel, newest
 * first; from any other installation it is refused (403 naming `test`) and leaves no trace.
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { installBody, PHONES, registerTestDevice } from '../../fixtures/fake-app.ts';
import {
  APP_HEADERS,
  adminGet,
  appCall,
  campaign,
  carrierLink,
  click,
  counted,
  network,
  newInstallId,
  send,
} from '../app-calls.ts';
import { ORIGIN } from '../helpers.ts';

const APP = 'com.pebble.notes';

interface Listed {
  id: number;
  kind: string;
  device: string;
  answer: Record<string, unknown>;
  explain: { summary: string[] };
  repeat: boolean;
}

/** A fresh install id, registered as a test device. */
async function testDevice(): Promise<string> {
  const installId = newInstallId();
  await registerTestDevice(send, installId);
  return installId;
}

async function listed(query: string): Promise<Listed[]> {
  const res = await adminGet(`/api/test-installs?${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { installs: Listed[] }).installs;
}

describe('a test device', () => {
  it('gets the answer a real install gets, plus its explanation, and is never counted', async () => {
    const channel = `test-${crypto.randomUUID().slice(0, 8)}`;
    const at = network(172);
    const d = campaign({ channel });
    const testTap = await click(PHONES.iPhone15, at(1), { d });
    const realTap = await click(PHONES.iPhone15, at(2), { d });
    const testId = await testDevice();
    const tested = await appCall(
      '/api/a/install',
      { ...installBody(PHONES.iPhone15, testId, { clipboard: carrierLink(`${testTap.clickId}.${d}`) }), test: true },
      at(1),
    );
    const realId = newInstallId();
    const real = await appCall(
      '/api/a/install',
      installBody(PHONES.iPhone15, realId, { clipboard: carrierLink(`${realTap.clickId}.${d}`) }),
      at(2),
    );
    const { explain, ...answer } = tested ?? {};
    expect(answer).toEqual({ ...real, clickId: testTap.clickId, clickedAt: expect.any(String) });
    expect(answer).toMatchObject({ matched: true, method: 'clipboard', confidence: 100, data: { channel } });
    expect(explain).toMatchObject({ carriers: [{ source: 'clipboard', verdict: 'used', tapRecorded: true }] });
    expect(real).not.toHaveProperty('explain');
    // The test device's events and open are not counted either; the real install's event is.
    await appCall('/api/a/event', { app: APP, installId: testId, name: 'signup' });
    await appCall('/api/a/open', {
      app: APP,
      installId: testId,
      carrier: carrierLink(`${testTap.clickId}.${d}`),
      test: true,
    });
    await appCall('/api/a/event', { app: APP, installId: realId, name: 'signup' });
    await expect.poll(() => counted(channel), { timeout: 20_000 }).toHaveProperty(['event:signup'], 1);
    expect(await counted(channel)).toEqual({ 'tap:download': 2, 'install:clipboard': 1, 'event:signup': 1 });
  });

  it('is idempotent like any install: a retry gets the first answer, listed as a repeat', async () => {
    const at = network(172);
    const d = campaign({ channel: 'retry' });
    const tapped = await click(PHONES.galaxyS23, at(3), { d });
    const installId = await testDevice();
    const body = {
      ...installBody(PHONES.galaxyS23, installId, { playReferrer: `${tapped.clickId}.${d}` }),
      test: true,
    };
    const first = await appCall('/api/a/install', body, at(3));
    const again = await appCall('/api/a/install', { ...body, carriers: undefined }, at(3));
    expect(again).toEqual(first);
    const rows = await expect
      .poll(() => listed(`app=${APP}&installId=${installId}`), { timeout: 10_000 })
      .toHaveLength(2)
      .then(() => listed(`app=${APP}&installId=${installId}`));
    expect(rows.map((row) => row.repeat)).toEqual([true, false]);
    expect(rows[0]?.device).toBe(rows[1]?.device);
    expect(JSON.stringify(rows)).not.toContain(installId);
  });

  it('is listed newest first, with its answer and explanation, within seconds', async () => {
    const at = network(172);
    const ids = [await testDevice(), await testDevice(), await testDevice()];
    for (const id of ids) await appCall('/api/a/install', { ...installBody(PHONES.iPhone15, id), test: true }, at(4));
    const rows = await Promise.all(
      ids.map(async (id) => {
        await expect.poll(async () => (await listed(`app=${APP}&installId=${id}`)).length, { timeout: 10_000 }).toBe(1);
        return (await listed(`app=${APP}&installId=${id}`))[0];
      }),
    );
    const recent = await listed(`app=${APP}&limit=200`);
    const order = rows.map((row) => recent.findIndex((item) => item.id === row?.id));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => b - a)).toEqual(order);
    expect(rows[2]).toMatchObject({ kind: 'install', answer: { matched: false, reason: 'none' }, repeat: false });
    expect(rows[2]?.explain.summary).toContain('No carrier arrived.');
    // A cursor: only what came after an id the poller already has.
    const after = await listed(`app=${APP}&after=${rows[1]?.id}`);
    expect(after.map((row) => row.id)).toContain(rows[2]?.id);
    expect(after.map((row) => row.id)).not.toContain(rows[1]?.id);
  });

  it('lists an open as an open', async () => {
    const installId = await testDevice();
    await appCall('/api/a/open', { app: APP, installId, carrier: 'https://example.com/', test: true }, '172.31.0.9');
    await expect
      .poll(async () => (await listed(`app=${APP}&installId=${installId}`))[0]?.kind, { timeout: 10_000 })
      .toBe('open');
    const [row] = await listed(`app=${APP}&installId=${installId}`);
    expect(row?.explain).toMatchObject({ carriers: [{ source: 'link', verdict: 'not-a-carrier' }], network: null });
  });

  it('refuses a test flag that is not a boolean', async () => {
    const res = await send(
      '/api/a/install',
      { ...installBody(PHONES.iPhone15, newInstallId()), test: 'yes' },
      APP_HEADERS,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'test: must be true or false' });
  });
});

describe('an installation no operator registered', () => {
  it('is refused with 403 naming test, and leaves no trace: not kept, not counted, its click unclaimed', async () => {
    const channel = `unreg-${crypto.randomUUID().slice(0, 8)}`;
    const at = network(172);
    const d = campaign({ channel });
    const tapped = await click(PHONES.iPhone15, at(1), { d });
    const carriers = { clipboard: carrierLink(`${tapped.clickId}.${d}`) };
    const installId = newInstallId();
    const body = { ...installBody(PHONES.iPhone15, installId, carriers), test: true };
    const res = await send('/api/a/install', body, { ...APP_HEADERS, 'cf-connecting-ip': at(1) });
    expect(res.status).toBe(403);
    const { error } = (await res.json()) as { error: string };
    expect(error).toMatch(/^test: this installation is not a registered test device/);
    expect(error).toContain(installId);
    const opened = await send(
      '/api/a/open',
      { app: APP, installId, carrier: carriers.clipboard, test: true },
      { ...APP_HEADERS, 'cf-connecting-ip': at(1) },
    );
    expect(opened.status).toBe(403);
    // The real installer still gets the click; the refused call was kept nowhere.
    const real = await appCall('/api/a/install', installBody(PHONES.iPhone15, newInstallId(), carriers), at(2));
    expect(real).toMatchObject({ matched: true, method: 'clipboard', data: { channel } });
    expect(await listed(`app=${APP}&installId=${installId}`)).toEqual([]);
    await expect.poll(() => counted(channel), { timeout: 20_000 }).toHaveProperty(['install:clipboard'], 1);
    // Registered afterwards, the same call is a test device's: answered with why.
    await registerTestDevice(send, installId);
    const tested = await appCall('/api/a/install', body, at(1));
    expect(tested).toMatchObject({ matched: false, reason: 'claimed', explain: expect.any(Object) });
  });

  it('gets no explanation of a stranger’s taps on its network', async () => {
    const at = network(172);
    await click(PHONES.iPhone15, at(1), { visitorId: 'stranger' });
    const res = await send(
      '/api/a/install',
      { ...installBody(PHONES.iPhone15, newInstallId()), test: true },
      { ...APP_HEADERS, 'cf-connecting-ip': at(9) },
    );
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain('taps');
  });
});

describe('a registered test device on a stranger’s network', () => {
  it('sees why the stranger’s tap would match, and leaves the click to the stranger’s install', async () => {
    const channel = `look-${crypto.randomUUID().slice(0, 8)}`;
    const at = network(172);
    const tapped = await click(PHONES.iPhone15, at(1), { d: campaign({ channel }) });
    const looked = await appCall(
      '/api/a/install',
      { ...installBody(PHONES.iPhone15, await testDevice()), test: true },
      at(2),
    );
    expect(looked).toMatchObject({ matched: true, method: 'probabilistic', clickId: tapped.clickId });
    expect(looked?.explain).toMatchObject({ network: { outcome: 'matched' } });
    const stranger = await appCall('/api/a/install', installBody(PHONES.iPhone15, newInstallId()), at(1));
    expect(stranger).toMatchObject({
      matched: true,
      method: 'probabilistic',
      clickId: tapped.clickId,
      data: { channel },
    });
  });
});

describe('/api/test-devices', () => {
  const call = (method: string, path = '', body?: unknown, token = DEV_ADMIN_TOKEN) =>
    exports.default.fetch(
      new Request(`${ORIGIN}/api/test-devices${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );

  it('registers a device once (201, then 200 with the same one), lists it by its hash, and forgets it', async () => {
    const installId = newInstallId();
    const made = await call('POST', '', { app: APP, installId, label: ' Ann’s iPhone ' });
    expect(made.status).toBe(201);
    const device = (await made.json()) as { id: number; device: string; label: string; app: string };
    expect(device).toMatchObject({ app: APP, label: 'Ann’s iPhone', device: expect.stringMatching(/^[\w-]{20,}$/) });
    const again = await call('POST', '', { app: APP, installId });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(device);
    const list = await (await call('GET')).text();
    expect(list).toContain(device.device);
    expect(list).not.toContain(installId);
    // Its test answers name it by the same hash.
    await appCall('/api/a/open', { app: APP, installId, carrier: 'https://example.com/', test: true }, '172.31.0.8');
    await expect
      .poll(async () => (await listed(`app=${APP}&installId=${installId}`))[0]?.device, { timeout: 10_000 })
      .toBe(device.device);
    expect((await call('DELETE', `/${device.id}`)).status).toBe(204);
    expect((await call('DELETE', `/${device.id}`)).status).toBe(404);
    const refused = await send(
      '/api/a/open',
      { app: APP, installId, carrier: 'https://example.com/', test: true },
      { ...APP_HEADERS, 'cf-connecting-ip': '172.31.0.8' },
    );
    expect(refused.status).toBe(403);
  });

  it.each([
    [{ app: '<b>', installId: 'install-0001' }, 'app: must be a package name'],
    [{ app: 'com.not.configured', installId: 'install-0001' }, 'app: "com.not.configured" is not a configured app'],
    [{ app: APP, installId: 'short' }, 'installId: must be 8–128 characters'],
    [{ app: APP, installId: 'install-0001', label: 'x'.repeat(61) }, 'label: must be at most 60 characters'],
    [{ app: APP, installId: 'install-0001', extra: 1 }, 'extra'],
  ])('answers 400 naming the field for %j', async (body, message) => {
    const res = await call('POST', '', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(message);
  });

  it('is for operators only', async () => {
    expect((await call('GET', '', undefined, 'wrong-token')).status).toBe(401);
    expect((await call('POST', '', { app: APP, installId: newInstallId() }, 'wrong-token')).status).toBe(401);
  });
});

describe('GET /api/test-installs', () => {
  it('is for operators only', async () => {
    expect((await adminGet('/api/test-installs', 'wrong-token')).status).toBe(401);
  });

  it.each([
    ['limit=0', 'limit: '],
    ['limit=abc', 'limit: must be a whole number'],
    ['installId=install-0001', 'installId: needs app'],
    ['app=<b>', 'app: must be a package name'],
    ['other=1', 'other'],
  ])('answers 400 for %s', async (query, message) => {
    const res = await adminGet(`/api/test-installs?${query}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(message);
  });
});
