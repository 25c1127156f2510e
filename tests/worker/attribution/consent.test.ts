/**
 * Consent switches things off (docs/privacy.md, "Consent"), through the worker, its Durable Objects,
 * D1 and the real conversion queue: over random traffic of taps, installs and app events, with GPC
 * on there are 0 probabilistic matches and 0 sends to third parties (a postback destination on the
 * platforms' fake hears nothing), while every carrier a person used still answers; the same traffic
 * without it is matched and sent, so the property can fail. Also: a TCF string without purpose 7 and
 * an app's ATT status stop the match, and a bad consent field is a 400 naming it.
 */
import { GppModel } from '@iabgpp/cmpapi';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickBody, installBody, PHONES, type Phone } from '../../fixtures/fake-app.ts';
import { APP_HEADERS, adminGet, carrierLink, network, newInstallId, send } from '../app-calls.ts';
import { addDestination, FAKE, fakeLog, freshKey, removeDestinations } from '../conversions/conversion-fixtures.ts';

/** The platforms' fake logs what the destination is sent under this key: each hit's event and ad click. */
const key = freshKey();
beforeAll(() =>
  addDestination({ platform: 'postback', settings: { url: `${FAKE}/${key}/postback/hit?n={event}&c={fbclid}` } }),
);
afterAll(removeDestinations);

type Hit = { n: string; c: string };
const hits = async (): Promise<Hit[]> => ((await fakeLog(key)).bodies.postback ?? []) as Hit[];

/**
 * What the destination was sent before now: an install allowed to be sent, whose tap came from the ad
 * `fbclid`, is installed last, and once its hit is in, everything queued before it has been handled.
 */
async function sentBefore(fbclid: string): Promise<Hit[]> {
  const at = network(199);
  const body = { ...clickBody(PHONES.galaxyS23), ad: { fbclid } };
  const tapped = await send('/api/a/click', body, {
    'cf-connecting-ip': at(1),
    'user-agent': PHONES.galaxyS23.web.agent,
  });
  expect(tapped.status).toBe(204);
  expect(await installFrom(PHONES.galaxyS23, at(2), null, carrierLink(body.clickId))).toMatchObject({ matched: true });
  await expect.poll(async () => (await hits()).some((hit) => hit.c === fbclid), { timeout: 20_000 }).toBe(true);
  return (await hits()).filter((hit) => hit.c !== fbclid);
}

type Answer = { matched: boolean; method?: string; reason?: string; clickId?: string };

/** How an install says GPC is on: the header a browser app sends, or the SDK's field. */
type GpcWay = 'header' | 'body';

async function tapFrom(phone: Phone, address: string, gpc: boolean, visitorId: string) {
  const body = clickBody(phone, { visitorId });
  const headers: Record<string, string> = { 'cf-connecting-ip': address, 'user-agent': phone.web.agent };
  if (gpc) headers['sec-gpc'] = '1';
  const res = await send('/api/a/click', body, headers);
  expect(res.status).toBe(204);
  return body.clickId;
}

async function installFrom(
  phone: Phone,
  address: string,
  gpc: GpcWay | null,
  carrier?: string,
  consent?: Record<string, unknown>,
  installId = newInstallId(),
): Promise<Answer> {
  const body: Record<string, unknown> = installBody(phone, installId, carrier ? { clipboard: carrier } : undefined);
  const headers: Record<string, string> = { ...APP_HEADERS, 'cf-connecting-ip': address };
  if (gpc === 'header') headers['sec-gpc'] = '1';
  if (gpc === 'body' || consent) body.consent = { ...(gpc === 'body' ? { gpc: true } : {}), ...consent };
  const res = await send('/api/a/install', body, headers);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

const phones = [PHONES.iPhone15, PHONES.galaxyS23, PHONES.iPhone16Safari26];
const step = fc.oneof(
  fc.record({ kind: fc.constant('tap' as const), phone: fc.nat(phones.length - 1), visitor: fc.uuid() }),
  fc.record({
    kind: fc.constant('install' as const),
    phone: fc.nat(phones.length - 1),
    // The carrier of an earlier tap of this run (by its index among the taps), or none.
    carrier: fc.option(fc.nat(5), { nil: undefined }),
    gpc: fc.constantFrom<GpcWay>('header', 'body'),
  }),
);

type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** Runs `steps` on a network of their own; the answers of the installs and the taps' click ids. */
async function run(steps: Step[], gpc: boolean) {
  const at = network(198);
  const taps: string[] = [];
  const installs: { answer: Answer; carried: string | undefined }[] = [];
  for (const [n, s] of steps.entries()) {
    const phone = phones[s.phone] as Phone;
    if (s.kind === 'tap') taps.push(await tapFrom(phone, at(n + 1), gpc, s.visitor));
    else {
      const carried = s.carrier === undefined ? undefined : taps[s.carrier % Math.max(taps.length, 1)];
      const installId = newInstallId();
      const answer = await installFrom(
        phone,
        at(n + 1),
        gpc ? s.gpc : null,
        carried && carrierLink(carried),
        undefined,
        installId,
      );
      // The app's purchase after it: a conversion too, sent only as the install's consent allowed.
      const event = await send(
        '/api/a/event',
        { app: 'com.pebble.notes', installId, name: 'purchase' },
        { ...APP_HEADERS, 'cf-connecting-ip': at(n + 1) },
      );
      expect(event.status).toBe(204);
      installs.push({ answer, carried });
    }
  }
  return { taps, installs };
}

describe('consent through the worker', () => {
  it('with GPC on: 0 probabilistic matches and 0 third-party sends, and every carrier still answers', async () => {
    const before = (await hits()).length;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const { installs } = await run(steps, true);
        const used = new Set<string>();
        for (const { answer, carried } of installs) {
          expect(answer.method).not.toBe('probabilistic');
          if (!carried) expect(answer).toEqual({ matched: false, reason: 'none' });
          else if (used.has(carried)) expect(answer).toEqual({ matched: false, reason: 'claimed' });
          else {
            expect(answer).toMatchObject({ matched: true, method: 'clipboard', clickId: carried });
            used.add(carried);
          }
        }
      }),
      { numRuns: 30 },
    );
    // Nothing of it reached the ad network: no install, no open, no app event.
    expect((await sentBefore('gpc-off-sentinel')).slice(before)).toEqual([]);
  });

  it('without GPC the same traffic is matched by look-alikes and sent (the property can fail)', async () => {
    const before = (await hits()).length;
    const { installs } = await run(
      [
        { kind: 'tap', phone: 0, visitor: crypto.randomUUID() },
        { kind: 'install', phone: 0, carrier: undefined, gpc: 'header' },
      ],
      false,
    );
    expect(installs[0]?.answer).toMatchObject({ matched: true, method: 'probabilistic' });
    const sent = (await sentBefore('gpc-on-sentinel')).slice(before);
    expect(sent.map((hit) => hit.n).sort()).toEqual(['install', 'purchase']);
  });

  it.each([
    ['an iOS app whose ATT status is denied', { att: 'denied' }],
    ['an app that says tracking: false', { tracking: false }],
    ['a TCF string without purpose 7', { tcf: tcfWithout7() }],
    ['a GPP string opting out of sale', { gpp: gppSaleOptOut() }],
    ['a consent string that does not decode', { tcf: 'not-a-tc-string' }],
  ])('%s gets no look-alike, and its explanation says consent', async (_, consent) => {
    const at = network(198);
    await tapFrom(PHONES.galaxyS23, at(1), false, crypto.randomUUID());
    const installId = newInstallId();
    const body = { ...installBody(PHONES.galaxyS23, installId), consent };
    const res = await send('/api/a/install', body, { ...APP_HEADERS, 'cf-connecting-ip': at(2) });
    expect(await res.json()).toEqual({ matched: false, reason: 'none' });
    const kept = (await (await adminGet(`/api/installs?app=com.pebble.notes&installId=${installId}`)).json()) as {
      explain: { network: unknown };
    };
    expect(kept.explain.network).toEqual({ outcome: 'consent' });
    // The look-alike is still there for an install that allows the match.
    expect(await installFrom(PHONES.galaxyS23, at(3), null)).toMatchObject({ method: 'probabilistic' });
  });

  it('a tap with the page-reported GPC is no look-alike', async () => {
    const at = network(198);
    const body = { ...clickBody(PHONES.iPhone15), consent: { gpc: true } };
    const tapped = await send('/api/a/click', body, {
      'cf-connecting-ip': at(1),
      'user-agent': PHONES.iPhone15.web.agent,
    });
    expect(tapped.status).toBe(204);
    expect(await installFrom(PHONES.iPhone15, at(2), null)).toEqual({ matched: false, reason: 'none' });
    expect(await installFrom(PHONES.iPhone15, at(3), null, carrierLink(body.clickId))).toMatchObject({
      matched: true,
      method: 'clipboard',
    });
  });

  it.each([
    [
      'an unknown ATT status',
      { att: 'maybe' },
      'consent.att: must be one of authorized, denied, restricted, notDetermined',
    ],
    ['a tracking flag that is no boolean', { tracking: 'no' }, 'consent.tracking: must be true or false'],
    ['a TC string over 4,096 characters', { tcf: 'x'.repeat(4097) }, 'consent.tcf: at most 4096 characters'],
    ['an unknown field', { other: true }, 'consent.other'],
  ])('refuses %s with 400 naming it', async (_, consent, message) => {
    const body = { ...installBody(PHONES.iPhone15, newInstallId()), consent };
    const res = await send('/api/a/install', body, { ...APP_HEADERS, 'cf-connecting-ip': '198.51.100.9' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(message);
  });
});

/** A TC string (GPP's `tcfeuv2` section is one) consenting to purposes 1 and 2, not 7, opted in to special feature 2. */
function tcfWithout7(): string {
  const model = new GppModel();
  model.setFieldValue('tcfeuv2', 'PurposeConsents', [true, true, ...Array(22).fill(false)]);
  model.setFieldValue('tcfeuv2', 'SpecialFeatureOptins', [false, true, ...Array(10).fill(false)]);
  model.setFieldValue('tcfeuv2', 'CmpId', 10);
  return model.encodeSection('tcfeuv2');
}

function gppSaleOptOut(): string {
  const model = new GppModel();
  model.setFieldValue('usnat', 'SaleOptOut', 1);
  return model.encode();
}
