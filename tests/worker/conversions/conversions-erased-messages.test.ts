/**
 * An erasure reaches the conversion queue (docs/conversions.md#delivery, docs/privacy.md): a message
 * still queued of a subject erased since — its install's event, an app event of its install, a
 * delivery of either — is dropped by the consumer, unsent and unrecorded, as the webhooks' are; an
 * install not erased is sent as ever.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversionEvent } from '../../../worker/conversions/messages.ts';
import { webhookSubjectRows } from '../../../worker/webhooks/erased.ts';
import { addDestination, drive, FAKE, fakeEnv, fakeLog, freshKey, removeDestinations } from './conversion-fixtures.ts';

afterEach(removeDestinations);

const eventsOf = (key: string, hash: string, at: number): ConversionEvent[] => {
  const common = { at, app: 'com.pebble.notes', install: hash, ad: null, clickedAt: null, country: 'NL' };
  return [
    { ...common, id: key, kind: 'install', name: 'install', platform: 'android' },
    { ...common, id: `${key}-buy`, kind: 'event', name: 'purchase', platform: null, currency: 'EUR', amount: 999 },
  ];
};

describe('conversion messages of an erased subject', () => {
  it('are dropped by the consumer, unsent and unrecorded; another install is sent', async () => {
    const key = freshKey();
    const destination = await addDestination({
      platform: 'postback',
      settings: { url: `${FAKE}/${key}/postback/hit?e={event_id}&n={event}&c={fbclid}` },
    });
    const at = Date.now();
    const gone = eventsOf(`gone${key}`, `hgone${key}`, at);
    const kept = eventsOf(`kept${key}`, `hkept${key}`, at);
    // Erased after its messages were queued: its install key and its install's webhook hash.
    await webhookSubjectRows(
      env.FUNNEL_DB,
      'default',
      { eventIds: [`gone${key}`], installs: [`hgone${key}`] },
      true,
      at,
    );
    await drive(fakeEnv(key), [
      ...[...gone, ...kept].map((event) => ({ k: 'event', tenant: 'default', event })),
      // A delivery queued before the erasure, of the erased install's app event.
      { k: 'delivery', tenant: 'default', destination: destination.id, event: gone[1] },
    ]);
    const log = await fakeLog(key);
    expect(Object.keys(log.accepted).sort()).toEqual([`postback kept${key}`, `postback kept${key}-buy`]);
    const rows = await env.FUNNEL_DB.prepare(
      'SELECT (SELECT COUNT(*) FROM conversion_installs WHERE install = ?1) AS installs, ' +
        '(SELECT COUNT(*) FROM conversion_deliveries WHERE event_id IN (?2, ?3)) AS deliveries',
    )
      .bind(`hgone${key}`, `gone${key}`, `gone${key}-buy`)
      .first();
    expect(rows).toEqual({ installs: 0, deliveries: 0 });
  });
});
