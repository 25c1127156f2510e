/**
 * The fraud rules' promise (docs/fraud.md): an honest install is never flagged. Whatever the phone,
 * carrier, delay (at least the 10 s floor), Play referrer times (click before install-begin, on
 * either clock) and inviter (signed in on another device, with another visitor id), the install
 * through the worker carries no flag.
 */
import { exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { fakeApp, PHONES, type PhoneName, type Send, tap } from '../../fixtures/fake-app.ts';
import { ageClick, flagsOf } from '../fraud-fixtures.ts';
import { ORIGIN } from '../helpers.ts';

const send: Send = (path, body, headers) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );

const ANDROID: PhoneName[] = ['galaxyS23', 'pixel8Firefox', 'nova9Harmony4'];
let networks = 0;

describe('an honest install is never flagged (property)', () => {
  it('click before install-begin, an ordinary delay, the inviter on another device', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ANDROID),
        fc.integer({ min: 10_000, max: 3 * 86_400_000 }),
        fc.integer({ min: 0, max: 600 }),
        fc.constantFrom('none', 'server', 'device', 'both'),
        fc.constantFrom('referrer', 'probabilistic'),
        async (name, anyDelayMs, clickBeforeBegin, clocks, carrier) => {
          // Without a carrier a click waits only the window (2 h): an honest delay inside it.
          const delayMs = carrier === 'probabilistic' ? 10_000 + (anyDelayMs % 6_000_000) : anyDelayMs;
          networks += 1;
          const phone = PHONES[name];
          const inviter = `inviter-${crypto.randomUUID()}`;
          // The inviter signs in on their own phone, on a network and with a visitor id of their own.
          const own = fakeApp(send, PHONES.iPhone15, `10.210.${networks % 250}.9`);
          const ownId = `own-${crypto.randomUUID()}`;
          await own.install(ownId);
          await own.identify(ownId, inviter);

          const address = `10.220.${networks % 250}.${1 + Math.floor(networks / 250)}`;
          const d = encryptToken(JSON.stringify({ channel: 'invite', inviter }), DEV_DECODE_KEY);
          const { body, response } = tap(send, phone, address, { d, visitorId: `friend-${crypto.randomUUID()}` });
          expect((await response).status).toBe(204);
          await ageClick(body.clickId, address, delayMs);
          const now = Date.now();
          const click = Math.floor((now - delayMs) / 1000);
          const begin = Math.min(click + clickBeforeBegin, Math.floor(now / 1000));
          const server = { referrerClickTimestampServerSeconds: click, installBeginTimestampServerSeconds: begin };
          const device = { referrerClickTimestampSeconds: click, installBeginTimestampSeconds: begin };
          const times = { none: undefined, server, device, both: { ...server, ...device } }[clocks];
          const id = `install-${crypto.randomUUID()}`;
          const carriers = carrier === 'referrer' ? { playReferrer: `${body.clickId}.${d}` } : undefined;
          const answer = await (await fakeApp(send, phone, address).install(id, carriers, times)).json();
          expect(answer).toMatchObject({ matched: true, clickId: body.clickId });
          expect(await flagsOf(id)).toEqual([]);
        },
      ),
      { numRuns: 12 },
    );
  });
});
