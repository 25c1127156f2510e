/**
 * Consent withdrawn after an install (docs/privacy.md, "Consent"), in the conversion queue's consumer:
 * a withdrawn install is marked, not forgotten, so its own install message arriving after the
 * withdrawal (still queued, or retried) allows it no more, and none of its opens and events is sent
 * from then on; an install not withdrawn is sent as ever.
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { withdrawInstall } from '../../../worker/conversions/fan-out.ts';
import type { ConversionEvent } from '../../../worker/conversions/messages.ts';
import { addDestination, drive, FAKE, fakeEnv, fakeLog, freshKey, removeDestinations } from './conversion-fixtures.ts';

afterEach(removeDestinations);

const common = (hash: string, at: number) => ({
  at,
  app: 'com.pebble.notes',
  install: hash,
  ad: null,
  clickedAt: null,
  country: 'NL',
});
const install = (key: string, hash: string, at: number): ConversionEvent => ({
  ...common(hash, at),
  id: key,
  kind: 'install',
  name: 'install',
  platform: 'android',
});
const purchase = (id: string, hash: string, at: number): ConversionEvent => ({
  ...common(hash, at),
  id,
  kind: 'event',
  name: 'purchase',
  platform: null,
  currency: 'EUR',
  amount: 999,
});
const queued = (events: ConversionEvent[]) => events.map((event) => ({ k: 'event', tenant: 'default', event }));

async function postback(key: string): Promise<void> {
  await addDestination({ platform: 'postback', settings: { url: `${FAKE}/${key}/postback/hit?e={event_id}` } });
}

describe('an install whose consent was withdrawn', () => {
  it('is not allowed by its own install message arriving after the withdrawal; another install is sent', async () => {
    const key = freshKey();
    await postback(key);
    const at = Date.now();
    await withdrawInstall(env.FUNNEL_DB, 'default', `hlate${key}`, at);
    await drive(
      fakeEnv(key),
      queued([
        install(`late${key}`, `hlate${key}`, at),
        purchase(`late${key}-buy`, `hlate${key}`, at),
        install(`kept${key}`, `hkept${key}`, at),
      ]),
    );
    expect(Object.keys((await fakeLog(key)).accepted)).toEqual([`postback kept${key}`]);
    const row = await env.FUNNEL_DB.prepare('SELECT withdrawn FROM conversion_installs WHERE app = ?1 AND install = ?2')
      .bind('default', `hlate${key}`)
      .first<{ withdrawn: number }>();
    expect(row).toEqual({ withdrawn: 1 });
  });

  it('sends what came before the withdrawal, and nothing after it', async () => {
    const key = freshKey();
    await postback(key);
    const at = Date.now();
    await drive(fakeEnv(key), queued([install(`i${key}`, `h${key}`, at), purchase(`i${key}-1`, `h${key}`, at)]));
    await withdrawInstall(env.FUNNEL_DB, 'default', `h${key}`, at + 1000);
    const driven = await drive(fakeEnv(key), queued([purchase(`i${key}-2`, `h${key}`, at + 2000)]));
    // Dropped at once, not asked again as an install not known yet.
    expect(driven.retries).toBe(0);
    expect(Object.keys((await fakeLog(key)).accepted).sort()).toEqual([`postback i${key}`, `postback i${key}-1`]);
  });

  it('over any order of events and withdrawals, sends exactly the events of installs not withdrawn before them', async () => {
    const step = fc.record({ install: fc.nat(2), withdraw: fc.boolean() });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        run += 1;
        const key = freshKey();
        await removeDestinations();
        await postback(key);
        const at = Date.now();
        const hash = (install: number) => `h${key}-${install}`;
        await drive(fakeEnv(key), queued([0, 1, 2].map((n) => install(`i${key}-${n}`, hash(n), at))));
        const gone = new Set<number>();
        const expected = [0, 1, 2].map((n) => `postback i${key}-${n}`);
        for (const [index, { install: n, withdraw }] of steps.entries()) {
          if (withdraw) {
            await withdrawInstall(env.FUNNEL_DB, 'default', hash(n), at + index);
            gone.add(n);
            continue;
          }
          const id = `i${key}-${n}-e${index}`;
          await drive(fakeEnv(key), queued([purchase(id, hash(n), at + index)]));
          if (!gone.has(n)) expected.push(`postback ${id}`);
        }
        expect(Object.keys((await fakeLog(key)).accepted).sort(), `run ${run}`).toEqual(expected.sort());
      }),
      { numRuns: 15 },
    );
  });
});
