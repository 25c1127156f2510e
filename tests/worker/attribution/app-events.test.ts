/**
 * `POST /api/a/event` (docs/operators.md, docs/attribution.md): the single body and the batch form,
 * and event ids, through the real queue into D1: an event with an id is counted once per
 * `(app, installId, id)`, however often an SDK retries it.
 */
import { describe, expect, it } from 'vitest';
import { installBody, PHONES } from '../../fixtures/fake-app.ts';
import {
  APP_HEADERS,
  appCall,
  campaign,
  carrierLink,
  click,
  counted,
  network,
  newInstallId,
  send,
} from '../app-calls.ts';

const APP = 'com.pebble.notes';

/** An install matched to a campaign of its own channel: events are counted under it. */
async function campaignInstall(
  channel = `ev-${crypto.randomUUID().slice(0, 8)}`,
): Promise<{ channel: string; installId: string }> {
  const at = network(11);
  const d = campaign({ channel });
  const { clickId } = await click(PHONES.iPhone15, at(1), { d });
  const installId = newInstallId();
  await appCall(
    '/api/a/install',
    installBody(PHONES.iPhone15, installId, { clipboard: carrierLink(`${clickId}.${d}`) }),
    at(1),
  );
  return { channel, installId };
}

/** Sends `marker` last and waits until it is counted: everything sent before it has been written. */
async function settle(channel: string, installId: string): Promise<Record<string, number>> {
  await appCall('/api/a/event', { app: APP, installId, name: 'marker' });
  await expect.poll(async () => (await counted(channel))['event:marker'] ?? 0, { timeout: 20_000 }).toBe(1);
  return counted(channel);
}

describe('POST /api/a/event', () => {
  it('counts a retried batch once in D1', async () => {
    const { channel, installId } = await campaignInstall();
    const batch = {
      app: APP,
      installId,
      events: [
        { id: 'evt-0001-signup', name: 'signup' },
        { id: 'evt-0002-purchase', name: 'purchase', value: 9.5 },
      ],
    };
    expect(await appCall('/api/a/event', batch)).toBeNull();
    // The SDK did not hear the 204 and sends the batch again, then again with a new event in it.
    await appCall('/api/a/event', batch);
    await appCall('/api/a/event', { ...batch, events: [...batch.events, { id: 'evt-0003-share', name: 'share' }] });
    expect(await settle(channel, installId)).toEqual({
      'tap:download': 1,
      'install:clipboard': 1,
      'event:signup': 1,
      'event:purchase': 1,
      'event:purchase:value': 9.5,
      'event:share': 1,
      'event:marker': 1,
    });
  });

  it('counts a retried single event with an id once, and one without an id each time', async () => {
    const { channel, installId } = await campaignInstall();
    const single = { app: APP, installId, id: 'single-0001', name: 'signup' };
    await appCall('/api/a/event', single);
    await appCall('/api/a/event', single);
    await appCall('/api/a/event', { app: APP, installId, name: 'tap' });
    await appCall('/api/a/event', { app: APP, installId, name: 'tap' });
    const figures = await settle(channel, installId);
    expect(figures['event:signup']).toBe(1);
    expect(figures['event:tap']).toBe(2);
  });

  it('counts an id repeated inside one batch once', async () => {
    const { channel, installId } = await campaignInstall();
    const twice = { id: 'evt-twice-0001', name: 'signup' };
    await appCall('/api/a/event', { app: APP, installId, events: [twice, twice, { ...twice, id: 'evt-once-0002' }] });
    expect((await settle(channel, installId))['event:signup']).toBe(2);
  });

  it("an id is the install's own: another install's event of the same id counts too", async () => {
    const first = await campaignInstall();
    const second = await campaignInstall(first.channel);
    await appCall('/api/a/event', { app: APP, installId: first.installId, id: 'shared-id-1', name: 'signup' });
    await appCall('/api/a/event', { app: APP, installId: second.installId, id: 'shared-id-1', name: 'signup' });
    expect((await settle(first.channel, first.installId))['event:signup']).toBe(2);
  });

  it.each([
    ['an empty batch', { events: [] }, 'events: needs at least one event'],
    [
      '51 events',
      { events: Array.from({ length: 51 }, (_, i) => ({ id: `evt-${1000 + i}`, name: 'x' })) },
      'events: at most 50',
    ],
    ['an event without its id', { events: [{ name: 'signup' }] }, 'events.0.id'],
    ['an id too short', { events: [{ id: 'short', name: 'signup' }] }, 'events.0.id: must be 8–64 characters'],
    ['an id with a space', { id: 'has a space', name: 'signup' }, 'id: must be 8–64 characters'],
    ['a batch with a name beside it', { name: 'signup', events: [{ id: 'evt-00001', name: 'x' }] }, 'name'],
    ['a bad name in a batch', { events: [{ id: 'evt-00001', name: 'Sign Up' }] }, 'events.0.name'],
  ])('answers 400 for %s', async (_, fields, message) => {
    const res = await send('/api/a/event', { app: APP, installId: newInstallId(), ...fields }, APP_HEADERS);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(message);
  });
});
