/**
 * Attribution end to end inside workerd (docs/attribution.md): taps on the page and first launches
 * of a fake app shaped like real iOS, Android and HarmonyOS apps, scenario by scenario. Every
 * answer is checked; the last test prints precision and recall and holds the rules: carriers
 * always right, and not one false match.
 */

import { env, exports } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import {
  type Carriers,
  type ClickOptions,
  fakeApp,
  issuedClickId,
  newClickId,
  PHONES,
  type Phone,
  type Send,
  tap,
} from '../../fixtures/fake-app.ts';
import { inBucket } from '../attribution-storage.ts';
import { expectConforms } from '../conforms.ts';
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

let networks = 0;
/** A /24 no other scenario uses; `host(n)` is an address in it. */
function network() {
  networks += 1;
  const prefix = `10.${Math.floor(networks / 250)}.${networks % 250}`;
  return (n: number) => `${prefix}.${n}`;
}

const campaign = (fields: Record<string, string>) => encryptToken(JSON.stringify(fields), DEV_DECODE_KEY);
const SPRING = { channel: 'spring-sale', inviter: 'ann' };
const host = (carrier: string) => `https://lander.test/i/${carrier}`;
let installs = 0;
const installId = () => `install-${++installs}-${crypto.randomUUID()}`;

/** A click id the worker issued, as the page on `address` gets it before a tap. */
const issued = (address: string) =>
  issuedClickId((path) =>
    exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers: { 'cf-connecting-ip': address } })),
  );

/** A tap on the page with an id the worker issued (unless `options.clickId` says otherwise), recorded. */
async function click(phone: Phone, address: string, options: ClickOptions = {}) {
  const { body, response } = tap(send, phone, address, {
    ...options,
    clickId: options.clickId ?? (await issued(address)),
  });
  expect((await response).status).toBe(204);
  return body;
}

async function install(phone: Phone, address: string, carriers?: Carriers, id = installId()) {
  const response = await fakeApp(send, phone, address).install(id, carriers);
  expect(response.status).toBe(200);
  return (await expectConforms(response, '/api/a/install')) as Record<string, unknown>;
}

/** `tapped` taps the page, then `installed` launches the app, from one address of a network of their own. */
async function tapThenInstall(tapped: Phone, installed: Phone = tapped, options: ClickOptions = {}) {
  const address = network()(1);
  const { clickId } = await click(tapped, address, options);
  return { clickId, answer: await install(installed, address) };
}

/** Moves a network's stored clicks `ms` into the past. */
const age = (address: string, ms: number) => inBucket(address, 'UPDATE clicks SET at = at - ?', ms);

type Expected = { matched: true; method: string; clickId: string; data?: object } | { matched: false; reason: string };
const outcomes: { name: string; expected: Expected; answer: Record<string, unknown> }[] = [];

/** Checks `answer` against `expected` and keeps both for the precision and recall count. */
function judge(name: string, answer: Record<string, unknown>, expected: Expected) {
  outcomes.push({ name, expected, answer });
  if (expected.matched) {
    expect(answer).toMatchObject({ matched: true, method: expected.method, clickId: expected.clickId });
    if (expected.data) expect(answer.data).toEqual(expected.data);
    if (expected.method !== 'probabilistic') expect(answer.confidence).toBe(100);
  } else {
    expect(answer).toEqual({ matched: false, reason: expected.reason });
  }
}

function scenario(name: string, run: (name: string) => Promise<void>) {
  it(name, () => run(name));
}

describe('deterministic carriers', () => {
  scenario('iOS: the clipboard carrier link brings the campaign', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.iPhone15, at(10), { d, action: 'open' });
    const answer = await install(PHONES.iPhone15, at(10), { clipboard: host(`${clickId}.${d}`) });
    judge(name, answer, { matched: true, method: 'clipboard', clickId, data: SPRING });
    expect(Date.parse(String(answer.clickedAt))).toBeLessThanOrEqual(Date.now());
  });

  scenario('iOS: the whole pasted text, the carrier link inside it', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.iPhone15, at(11), { d });
    const pasted = `Join me on Pebble Notes ${host(`${clickId}.${d}`)} see you there`;
    judge(name, await install(PHONES.iPhone15, at(11), { clipboard: pasted }), {
      matched: true,
      method: 'clipboard',
      clickId,
      data: SPRING,
    });
  });

  scenario('a bare carrier on the clipboard', async (name) => {
    const at = network();
    const d = campaign({ channel: 'bare' });
    const { clickId } = await click(PHONES.iPhone15, at(12), { d });
    judge(name, await install(PHONES.iPhone15, at(12), { clipboard: `${clickId}.${d}` }), {
      matched: true,
      method: 'clipboard',
      clickId,
      data: { channel: 'bare' },
    });
  });

  scenario('Android: the Play install referrer', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.galaxyS23, at(13), { d, action: 'store' });
    judge(name, await install(PHONES.galaxyS23, at(13), { playReferrer: `${clickId}.${d}` }), {
      matched: true,
      method: 'referrer',
      clickId,
      data: SPRING,
    });
  });

  scenario('Android: the stamp inside the downloaded APK', async (name) => {
    const at = network();
    const d = campaign({ channel: 'apk', inviter: 'bo' });
    const { clickId } = await click(PHONES.pixel8Firefox, at(14), { d });
    judge(name, await install(PHONES.pixel8Firefox, at(14), { apk: `${clickId}.${d}` }), {
      matched: true,
      method: 'apk',
      clickId,
      data: { channel: 'apk', inviter: 'bo' },
    });
  });

  scenario('HarmonyOS NEXT: the App Linking URL the system kept', async (name) => {
    const at = network();
    const d = campaign({ channel: 'harmony' });
    const { clickId } = await click(PHONES.mate60Next, at(15), { d, action: 'open' });
    const link = `https://open.pebble-notes.example/i/${clickId}.${d}`;
    judge(name, await install(PHONES.mate60Next, at(15), { harmonyLink: link }), {
      matched: true,
      method: 'harmony',
      clickId,
      data: { channel: 'harmony' },
    });
  });

  scenario('an organic tap (no campaign): matched with empty data', async (name) => {
    const at = network();
    const { clickId } = await click(PHONES.iPhone15, at(16));
    judge(name, await install(PHONES.iPhone15, at(16), { clipboard: host(clickId) }), {
      matched: true,
      method: 'clipboard',
      clickId,
      data: {},
    });
  });

  scenario('a carrier whose click beacon never arrived still resolves, without a time', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const clickId = await issued(at(17));
    const answer = await install(PHONES.iPhone15, at(17), { clipboard: host(`${clickId}.${d}`) });
    judge(name, answer, { matched: true, method: 'clipboard', clickId, data: SPRING });
    expect(answer.clickedAt).toBeNull();
  });

  scenario("a tap made before the page had the worker's ids: its own id credits, its tap recorded", async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.iPhone15, at(18), { d, clickId: newClickId() });
    judge(name, await install(PHONES.iPhone15, at(18), { clipboard: host(`${clickId}.${d}`) }), {
      matched: true,
      method: 'clipboard',
      clickId,
      data: SPRING,
    });
  });

  scenario('Wi-Fi to cellular with a carrier: still the carrier', async (name) => {
    const wifi = network();
    const cellular = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.galaxyS23, wifi(20), { d });
    judge(name, await install(PHONES.galaxyS23, cellular(99), { playReferrer: `${clickId}.${d}` }), {
      matched: true,
      method: 'referrer',
      clickId,
      data: SPRING,
    });
  });

  scenario('the most reliable carrier wins: the APK stamp over an older clipboard', async (name) => {
    const at = network();
    const old = await click(PHONES.pixel8Firefox, at(21), { d: campaign({ channel: 'old' }) });
    const fresh = await click(PHONES.pixel8Firefox, at(21), { d: campaign({ channel: 'fresh' }) });
    const answer = await install(PHONES.pixel8Firefox, at(21), {
      clipboard: host(`${old.clickId}.${old.d}`),
      apk: `${fresh.clickId}.${fresh.d}`,
    });
    judge(name, answer, { matched: true, method: 'apk', clickId: fresh.clickId, data: { channel: 'fresh' } });
  });

  scenario('a tampered carrier is no carrier: nothing else here → none', async (name) => {
    const at = network();
    const d = campaign({ channel: 'real' });
    const { clickId } = await click(PHONES.iPhone15, at(22), { d });
    const forged = `${d.slice(0, 30)}${d[30] === 'A' ? 'B' : 'A'}${d.slice(31)}`;
    // The genuine click is still on this network: a look-alike install would match it, so this one comes from elsewhere.
    const elsewhere = network();
    judge(name, await install(PHONES.iPhone15, elsewhere(1), { clipboard: host(`${clickId}.${forged}`) }), {
      matched: false,
      reason: 'none',
    });
  });

  scenario('a tampered carrier falls back to the unique look-alike click on the network', async (name) => {
    const at = network();
    const d = campaign({ channel: 'real' });
    const { clickId } = await click(PHONES.iPhone15, at(23), { d });
    const forged = campaign({ channel: 'forged' }).replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    judge(name, await install(PHONES.iPhone15, at(23), { clipboard: host(`${clickId}.${forged}`) }), {
      matched: true,
      method: 'probabilistic',
      clickId,
      data: { channel: 'real' },
    });
  });

  scenario('a carrier with a malformed click id is ignored', async (name) => {
    const at = network();
    judge(name, await install(PHONES.iPhone15, at(24), { clipboard: host(`short.${campaign(SPRING)}`) }), {
      matched: false,
      reason: 'none',
    });
  });

  scenario("a clipboard holding somebody else's text is no carrier", async (name) => {
    const at = network();
    judge(name, await install(PHONES.iPhone15, at(25), { clipboard: 'https://example.com/some/article?id=7' }), {
      matched: false,
      reason: 'none',
    });
  });
});

describe('probabilistic fallback', () => {
  scenario('the same iPhone on the same network, no carrier', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.iPhone15, at(30), { d });
    const answer = await install(PHONES.iPhone15, at(30));
    judge(name, answer, { matched: true, method: 'probabilistic', clickId, data: SPRING });
    expect(answer.confidence).toBeGreaterThanOrEqual(60);
    expect(answer.confidence).toBeLessThan(100);
  });

  scenario("Android Chrome's reduced agent, told by client hints", async (name) => {
    const { clickId, answer } = await tapThenInstall(PHONES.galaxyS23, PHONES.galaxyS23, { d: campaign(SPRING) });
    judge(name, answer, { matched: true, method: 'probabilistic', clickId });
  });

  scenario("Android's reduced agent without hints: the version does not decide", async (name) => {
    const phone = { ...PHONES.galaxyS23, web: { ...PHONES.galaxyS23.web, hints: undefined } };
    const { clickId, answer } = await tapThenInstall(phone);
    judge(name, answer, { matched: true, method: 'probabilistic', clickId });
  });

  scenario('fractional dp (Pixel 8 at 2.625×) against whole CSS pixels', async (name) => {
    const { clickId, answer } = await tapThenInstall(PHONES.pixel8Firefox);
    judge(name, answer, { matched: true, method: 'probabilistic', clickId });
  });

  scenario('tapped in landscape, launched in portrait', async (name) => {
    const { clickId, answer } = await tapThenInstall(PHONES.iPhone15, PHONES.iPhone15, { landscape: true });
    judge(name, answer, { matched: true, method: 'probabilistic', clickId });
  });

  scenario('Safari 26 freezes iOS at 18_6: its Version tells 26, the app says 26.1', async (name) => {
    const { clickId, answer } = await tapThenInstall(PHONES.iPhone16Safari26);
    judge(name, answer, { matched: true, method: 'probabilistic', clickId });
  });

  scenario('an iOS 26 webview (WeChat): frozen 18_6 and no Version, so the version does not decide', async (name) => {
    const { clickId, answer } = await tapThenInstall(PHONES.iPhone16WeChat);
    judge(name, answer, { matched: true, method: 'probabilistic', clickId });
  });

  scenario('HarmonyOS NEXT browser and native app', async (name) => {
    const { clickId, answer } = await tapThenInstall(PHONES.mate60Next);
    judge(name, answer, { matched: true, method: 'probabilistic', clickId });
  });

  scenario('HarmonyOS 4: the page saw Harmony, the app is an Android app', async (name) => {
    const { clickId, answer } = await tapThenInstall(PHONES.nova9Harmony4);
    judge(name, answer, { matched: true, method: 'probabilistic', clickId });
  });

  scenario('one person tapped twice (one visitor id): one person, the latest click', async (name) => {
    const at = network();
    await click(PHONES.iPhone15, at(39), { visitorId: 'v-1', d: campaign({ channel: 'first' }) });
    const latest = await click(PHONES.iPhone15, at(39), { visitorId: 'v-1', d: campaign({ channel: 'second' }) });
    judge(name, await install(PHONES.iPhone15, at(39)), {
      matched: true,
      method: 'probabilistic',
      clickId: latest.clickId,
      data: { channel: 'second' },
    });
  });

  scenario('the same click matches the same phone on another address of its /24', async (name) => {
    const at = network();
    const { clickId } = await click(PHONES.iPhone15, at(40));
    judge(name, await install(PHONES.iPhone15, at(41)), { matched: true, method: 'probabilistic', clickId });
  });

  scenario('IPv6: the same /64 matches', async (name) => {
    const { clickId } = await click(PHONES.iPhone15, '2001:db8:40:1::a');
    judge(name, await install(PHONES.iPhone15, '2001:db8:40:1:ffff::b'), {
      matched: true,
      method: 'probabilistic',
      clickId,
    });
  });

  scenario('an IPv4 address written as IPv6 is the same network', async (name) => {
    const at = network();
    const { clickId } = await click(PHONES.iPhone15, at(42));
    judge(name, await install(PHONES.iPhone15, `::ffff:${at(42)}`), {
      matched: true,
      method: 'probabilistic',
      clickId,
    });
  });
});

describe('no match where a guess would be wrong', () => {
  scenario('Wi-Fi to cellular without a carrier: none', async (name) => {
    const wifi = network();
    const cellular = network();
    await click(PHONES.iPhone15, wifi(50));
    judge(name, await install(PHONES.iPhone15, cellular(50)), { matched: false, reason: 'none' });
  });

  scenario('IPv6: another /64 is another network', async (name) => {
    await click(PHONES.iPhone15, '2001:db8:41:1::a');
    judge(name, await install(PHONES.iPhone15, '2001:db8:41:2::a'), { matched: false, reason: 'none' });
  });

  scenario('two similar iPhones behind one office NAT: the first install is ambiguous', async (name) => {
    const at = network();
    await click(PHONES.iPhone15, at(51), { visitorId: 'alice', d: campaign({ inviter: 'alice-friend' }) });
    await click(PHONES.iPhone15, at(52), { visitorId: 'bob', d: campaign({ inviter: 'bob-friend' }) });
    judge(name, await install(PHONES.iPhone15, at(51)), { matched: false, reason: 'ambiguous' });
  });

  scenario('two similar iPhones behind one carrier NAT address: the second install is ambiguous too', async (name) => {
    const at = network();
    await click(PHONES.iPhone15, at(53), { d: campaign({ inviter: 'x' }) });
    await click(PHONES.iPhone15, at(53), { d: campaign({ inviter: 'y' }) });
    await install(PHONES.iPhone15, at(53));
    judge(name, await install(PHONES.iPhone15, at(53)), { matched: false, reason: 'ambiguous' });
  });

  scenario('one person tapped twice without a visitor id: two clicks, ambiguous', async (name) => {
    const at = network();
    await click(PHONES.iPhone15, at(54));
    await click(PHONES.iPhone15, at(54));
    judge(name, await install(PHONES.iPhone15, at(54)), { matched: false, reason: 'ambiguous' });
  });

  scenario('another OS family: an Android click never matches an iOS install', async (name) => {
    const iosLookalike = { ...PHONES.iPhone15, tz: PHONES.galaxyS23.tz, appLangs: PHONES.galaxyS23.appLangs };
    const { answer } = await tapThenInstall(PHONES.galaxyS23, iosLookalike);
    judge(name, answer, { matched: false, reason: 'none' });
  });

  scenario('another OS version (iOS 17.5 tap, iOS 18.1 install): none', async (name) => {
    const updated = { ...PHONES.iPhone15, app: { ...PHONES.iPhone15.app, osVersion: '18.1' } };
    const { answer } = await tapThenInstall(PHONES.iPhone15, updated);
    judge(name, answer, { matched: false, reason: 'none' });
  });

  scenario('another Android model told by hints: none', async (name) => {
    const other = { ...PHONES.galaxyS23, app: { ...PHONES.galaxyS23.app, model: 'SM-A546B' } };
    const { answer } = await tapThenInstall(PHONES.galaxyS23, other);
    judge(name, answer, { matched: false, reason: 'none' });
  });

  scenario('another screen size: none', async (name) => {
    const plus = { ...PHONES.iPhone15, app: { ...PHONES.iPhone15.app, screen: { w: 430, h: 932, scale: 3 } } };
    const { answer } = await tapThenInstall(PHONES.iPhone15, plus);
    judge(name, answer, { matched: false, reason: 'none' });
  });

  scenario('another time zone: none', async (name) => {
    const { answer } = await tapThenInstall(PHONES.iPhone15, { ...PHONES.iPhone15, tz: 'Asia/Tokyo' });
    judge(name, answer, { matched: false, reason: 'none' });
  });

  scenario('another primary language: none', async (name) => {
    const { answer } = await tapThenInstall(PHONES.iPhone15, { ...PHONES.iPhone15, appLangs: ['en-US'] });
    judge(name, answer, { matched: false, reason: 'none' });
  });

  scenario('a click older than the window: expired', async (name) => {
    const at = network();
    await click(PHONES.iPhone15, at(61));
    await age(at(61), 3 * 60 * 60 * 1000);
    judge(name, await install(PHONES.iPhone15, at(61)), { matched: false, reason: 'expired' });
  });

  scenario('an expired click beside a live one: the live one', async (name) => {
    const at = network();
    await click(PHONES.iPhone15, at(62), { visitorId: 'old' });
    await age(at(62), 3 * 60 * 60 * 1000);
    const live = await click(PHONES.iPhone15, at(62), { visitorId: 'new' });
    judge(name, await install(PHONES.iPhone15, at(62)), {
      matched: true,
      method: 'probabilistic',
      clickId: live.clickId,
    });
  });

  scenario(
    "a link's public token with a click id the worker never issued nor saw tapped credits nothing",
    async (name) => {
      const at = network();
      const d = campaign(SPRING);
      const forged = { clipboard: host(`${newClickId()}.${d}`), playReferrer: `${newClickId()}.${d}` };
      judge(name, await install(PHONES.galaxyS23, at(60), forged), { matched: false, reason: 'none' });
    },
  );

  scenario('one tap credits one install: a second install carrying its carrier is claimed', async (name) => {
    const at = network();
    const other = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.iPhone15, at(61), { d });
    const carriers = { clipboard: host(`${clickId}.${d}`) };
    const first = installId();
    expect(await install(PHONES.iPhone15, at(61), carriers, first)).toMatchObject({ matched: true, clickId });
    judge(name, await install(PHONES.iPhone15, other(61), carriers), { matched: false, reason: 'claimed' });
    // The install that holds the click keeps its answer.
    expect(await install(PHONES.iPhone15, at(61), carriers, first)).toMatchObject({ matched: true, clickId });
  });

  scenario('a click a look-alike install took is not credited again by its carrier', async (name) => {
    const at = network();
    const { clickId } = await click(PHONES.iPhone15, at(62));
    expect(await install(PHONES.iPhone15, at(62))).toMatchObject({ matched: true, method: 'probabilistic', clickId });
    judge(name, await install(PHONES.iPhone15, at(62), { clipboard: host(clickId) }), {
      matched: false,
      reason: 'claimed',
    });
  });

  scenario('a claimed click is single use: the next look-alike install gets none', async (name) => {
    const at = network();
    await click(PHONES.iPhone15, at(63));
    expect(await install(PHONES.iPhone15, at(63))).toMatchObject({ matched: true });
    judge(name, await install(PHONES.iPhone15, at(63)), { matched: false, reason: 'none' });
  });

  scenario('a click claimed by a carrier from another network is never handed to a look-alike', async (name) => {
    const wifi = network();
    const cellular = network();
    const { clickId } = await click(PHONES.iPhone15, wifi(64));
    expect(await install(PHONES.iPhone15, cellular(64), { clipboard: host(clickId) })).toMatchObject({ clickId });
    judge(name, await install(PHONES.iPhone15, wifi(65)), { matched: false, reason: 'none' });
  });

  scenario("a crawler's tap is never recorded", async (name) => {
    const bot = { ...PHONES.iPhone15, web: { ...PHONES.iPhone15.web, agent: UA.googlebot } };
    const { answer } = await tapThenInstall(bot, PHONES.iPhone15);
    judge(name, answer, { matched: false, reason: 'none' });
  });

  scenario('a desktop tap is no install candidate', async (name) => {
    const desktop = { ...PHONES.iPhone15, web: { ...PHONES.iPhone15.web, agent: UA.desktop } };
    const { answer } = await tapThenInstall(desktop, PHONES.iPhone15);
    judge(name, answer, { matched: false, reason: 'none' });
  });
});

describe('idempotent per (app, installId)', () => {
  scenario('a retried install gets the same probabilistic answer, though its click is claimed', async (name) => {
    const at = network();
    const { clickId } = await click(PHONES.iPhone15, at(70));
    const id = installId();
    const first = await install(PHONES.iPhone15, at(70), undefined, id);
    const retry = await install(PHONES.iPhone15, at(70), undefined, id);
    expect(retry).toEqual(first);
    judge(name, retry, { matched: true, method: 'probabilistic', clickId });
  });

  scenario('a retry with other carriers still gets the first answer', async (name) => {
    const at = network();
    const first = await click(PHONES.iPhone15, at(71), { d: campaign({ channel: 'first' }) });
    const other = await click(PHONES.iPhone15, at(72), { d: campaign({ channel: 'other' }) });
    const id = installId();
    await install(PHONES.iPhone15, at(71), { clipboard: host(`${first.clickId}.${first.d}`) }, id);
    judge(name, await install(PHONES.iPhone15, at(71), { clipboard: host(`${other.clickId}.${other.d}`) }, id), {
      matched: true,
      method: 'clipboard',
      clickId: first.clickId,
      data: { channel: 'first' },
    });
  });

  scenario('concurrent retries of one install agree', async (name) => {
    const at = network();
    const { clickId } = await click(PHONES.galaxyS23, at(73));
    const id = installId();
    const answers = await Promise.all([1, 2, 3].map(() => install(PHONES.galaxyS23, at(73), undefined, id)));
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    judge(name, answers[0] ?? {}, { matched: true, method: 'probabilistic', clickId });
  });

  scenario('a replayed installId of a none answer stays none after a click arrives', async (name) => {
    const at = network();
    const id = installId();
    await install(PHONES.iPhone15, at(74), undefined, id);
    await click(PHONES.iPhone15, at(74));
    judge(name, await install(PHONES.iPhone15, at(74), undefined, id), { matched: false, reason: 'none' });
  });
});

/** What each fraud case should be flagged with, and what it was: the rules' precision and recall (docs/fraud.md). */
const flagged: { name: string; expected: string[]; got: string[] }[] = [];

/** Checks the install's flags against `expected` and keeps both. */
async function judgeFlags(name: string, id: string, expected: string[], minFlags = 0) {
  const got = await flagsOf(id, minFlags);
  flagged.push({ name, expected: [...expected].sort(), got });
  expect(got).toEqual([...expected].sort());
}

const seconds = (ms: number) => Math.floor(ms / 1000);
const MINUTE = 60_000;

describe('fraud flags (docs/fraud.md): a rule marks an install, the answer stays the same', () => {
  scenario('honest: Play referrer, click long before install-begin, an ordinary delay', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.galaxyS23, at(100), { d, action: 'store' });
    await ageClick(clickId, at(100), 5 * MINUTE);
    const now = Date.now();
    const id = installId();
    const response = await fakeApp(send, PHONES.galaxyS23, at(100)).install(
      id,
      { playReferrer: `${clickId}.${d}` },
      {
        referrerClickTimestampSeconds: seconds(now - 5 * MINUTE),
        installBeginTimestampSeconds: seconds(now - 2 * MINUTE),
        referrerClickTimestampServerSeconds: seconds(now - 5 * MINUTE),
        installBeginTimestampServerSeconds: seconds(now - 2 * MINUTE),
      },
    );
    const answer = (await expectConforms(response, '/api/a/install')) as Record<string, unknown>;
    judge(name, answer, { matched: true, method: 'referrer', clickId, data: SPRING });
    await judgeFlags(name, id, []);
  });

  scenario('honest: iOS clipboard a minute after the tap', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.iPhone15, at(101), { d });
    await ageClick(clickId, at(101), MINUTE);
    const id = installId();
    judge(name, await install(PHONES.iPhone15, at(101), { clipboard: host(`${clickId}.${d}`) }, id), {
      matched: true,
      method: 'clipboard',
      clickId,
    });
    await judgeFlags(name, id, []);
  });

  scenario('honest: a probabilistic match two minutes after the tap', async (name) => {
    const at = network();
    const { clickId } = await click(PHONES.pixel8Firefox, at(102), { d: campaign(SPRING) });
    await ageClick(clickId, at(102), 2 * MINUTE);
    const id = installId();
    judge(name, await install(PHONES.pixel8Firefox, at(102), undefined, id), {
      matched: true,
      method: 'probabilistic',
      clickId,
    });
    await judgeFlags(name, id, []);
  });

  scenario('honest: the inviter signed in on their own phone, a friend installs on another', async (name) => {
    const inviter = `eve-${crypto.randomUUID()}`;
    const own = network();
    const ownId = installId();
    await install(PHONES.iPhone15, own(1), undefined, ownId);
    expect((await fakeApp(send, PHONES.iPhone15, own(1)).identify(ownId, inviter)).status).toBe(204);
    const at = network();
    const d = campaign({ channel: 'invite', inviter });
    const { clickId } = await click(PHONES.galaxyS23, at(103), { d, visitorId: `friend-${crypto.randomUUID()}` });
    await ageClick(clickId, at(103), 3 * MINUTE);
    const id = installId();
    judge(name, await install(PHONES.galaxyS23, at(103), { playReferrer: `${clickId}.${d}` }, id), {
      matched: true,
      method: 'referrer',
      clickId,
    });
    expect((await fakeApp(send, PHONES.galaxyS23, at(103)).identify(id, `friend-${crypto.randomUUID()}`)).status).toBe(
      204,
    );
    await judgeFlags(name, id, []);
  });

  scenario('injected click: the referrer click came after install-begin (Play server clock)', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.galaxyS23, at(104), { d, action: 'store' });
    await ageClick(clickId, at(104), 2 * MINUTE);
    const now = Date.now();
    const id = installId();
    const response = await fakeApp(send, PHONES.galaxyS23, at(104)).install(
      id,
      { playReferrer: `${clickId}.${d}` },
      {
        referrerClickTimestampServerSeconds: seconds(now - 2 * MINUTE),
        installBeginTimestampServerSeconds: seconds(now - 3 * MINUTE),
      },
    );
    judge(name, (await response.json()) as Record<string, unknown>, { matched: true, method: 'referrer', clickId });
    await judgeFlags(name, id, ['click_injection']);
  });

  scenario('injected click: the recorded click came after install-begin (device clock only)', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.nova9Harmony4, at(105), { d, action: 'store' });
    await ageClick(clickId, at(105), MINUTE);
    const id = installId();
    const response = await fakeApp(send, PHONES.nova9Harmony4, at(105)).install(
      id,
      { playReferrer: `${clickId}.${d}` },
      { installBeginTimestampSeconds: seconds(Date.now() - 10 * MINUTE) },
    );
    judge(name, (await response.json()) as Record<string, unknown>, { matched: true, method: 'referrer', clickId });
    await judgeFlags(name, id, ['click_injection']);
  });

  scenario('injected and too fast: a click fired as the install broadcast arrived', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.galaxyS23, at(106), { d, action: 'store' });
    const now = Date.now();
    const id = installId();
    await fakeApp(send, PHONES.galaxyS23, at(106)).install(
      id,
      { playReferrer: `${clickId}.${d}` },
      { referrerClickTimestampSeconds: seconds(now), installBeginTimestampSeconds: seconds(now - 40_000) },
    );
    await judgeFlags(name, id, ['click_injection', 'too_fast']);
  });

  scenario('too fast: the app launched 2 s after the tap', async (name) => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.iPhone15, at(107), { d });
    await ageClick(clickId, at(107), 2000);
    const id = installId();
    await install(PHONES.iPhone15, at(107), { clipboard: host(`${clickId}.${d}`) }, id);
    await judgeFlags(name, id, ['too_fast']);
  });

  scenario('too fast: a probabilistic match 4 s after the tap', async (name) => {
    const at = network();
    const { clickId } = await click(PHONES.mate60Next, at(108), { d: campaign(SPRING) });
    await ageClick(clickId, at(108), 4000);
    const id = installId();
    judge(name, await install(PHONES.mate60Next, at(108), undefined, id), {
      matched: true,
      method: 'probabilistic',
      clickId,
    });
    await judgeFlags(name, id, ['too_fast']);
  });

  scenario('self-referral: the inviter installs through their own link and signs in', async (name) => {
    const inviter = `cat-${crypto.randomUUID()}`;
    const at = network();
    const d = campaign({ channel: 'invite', inviter });
    const { clickId } = await click(PHONES.iPhone15, at(109), { d });
    await ageClick(clickId, at(109), 5 * MINUTE);
    const id = installId();
    await install(PHONES.iPhone15, at(109), { clipboard: host(`${clickId}.${d}`) }, id);
    await flagsOf(id);
    expect((await fakeApp(send, PHONES.iPhone15, at(109)).identify(id, inviter)).status).toBe(204);
    await judgeFlags(name, id, ['self_referral'], 1);
  });

  scenario("self-referral: a reinstall through the inviter's link from the inviter's own browser", async (name) => {
    const inviter = `dan-${crypto.randomUUID()}`;
    const visitorId = `visitor-${crypto.randomUUID()}`;
    const first = network();
    const { clickId: own } = await click(PHONES.galaxyS23, first(1), { visitorId });
    await ageClick(own, first(1), 10 * MINUTE);
    const ownId = installId();
    await install(PHONES.galaxyS23, first(1), undefined, ownId);
    expect((await fakeApp(send, PHONES.galaxyS23, first(1)).identify(ownId, inviter)).status).toBe(204);
    await vi.waitFor(async () => {
      const row = await env.FUNNEL_DB.prepare("SELECT 1 FROM fraud_identities WHERE kind = 'visitor'").first();
      if (!row) throw new Error('identity not kept yet');
    });
    const at = network();
    const d = campaign({ channel: 'invite', inviter });
    const { clickId } = await click(PHONES.galaxyS23, at(110), { d, visitorId, action: 'store' });
    await ageClick(clickId, at(110), 5 * MINUTE);
    const id = installId();
    await install(PHONES.galaxyS23, at(110), { playReferrer: `${clickId}.${d}` }, id);
    await judgeFlags(name, id, ['self_referral']);
  });
});

describe('the fraud rules over the cases above', () => {
  it('flag every case they should, and never an honest one', () => {
    const lines: string[] = [];
    for (const rule of ['click_injection', 'too_fast', 'self_referral']) {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      for (const { expected, got } of flagged) {
        const want = expected.includes(rule);
        const have = got.includes(rule);
        if (want && have) tp += 1;
        else if (have) fp += 1;
        else if (want) fn += 1;
      }
      const precision = tp / Math.max(1, tp + fp);
      const recall = tp / Math.max(1, tp + fn);
      lines.push(
        `${rule}: precision ${(precision * 100).toFixed(0)} %, recall ${(recall * 100).toFixed(0)} % (${tp}/${tp + fn})`,
      );
      expect(tp).toBeGreaterThan(0);
      expect(fp).toBe(0);
      expect(fn).toBe(0);
    }
    console.log(`fraud cases: ${flagged.length}; ${lines.join('; ')}`);
    const honest = flagged.filter((item) => item.expected.length === 0);
    expect(honest.length).toBeGreaterThanOrEqual(4);
    expect(honest.every((item) => item.got.length === 0)).toBe(true);
  });
});

describe('opened by a link', () => {
  it("POST /api/a/open answers the carrier's click and campaign", async () => {
    const at = network();
    const d = campaign(SPRING);
    const { clickId } = await click(PHONES.iPhone15, at(80), { d, action: 'open' });
    const response = await fakeApp(send, PHONES.iPhone15, at(80)).open(installId(), host(`${clickId}.${d}`));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      matched: true,
      method: 'clipboard',
      confidence: 100,
      clickId,
      data: SPRING,
    });
  });

  it('POST /api/a/open with no carrier in it answers none', async () => {
    const response = await fakeApp(send, PHONES.iPhone15, '10.250.0.1').open(installId(), 'https://example.com/');
    expect(await response.json()).toEqual({ matched: false, reason: 'none' });
  });
});

describe('precision and recall over the scenarios above', () => {
  it("carriers are always right, and no install ever gets another person's click", () => {
    let truePositives = 0;
    let falseMatches = 0;
    let missed = 0;
    let carrierRight = 0;
    let carrierCases = 0;
    for (const { expected, answer } of outcomes) {
      const matched = answer.matched === true;
      if (expected.matched) {
        const right = matched && answer.clickId === expected.clickId;
        if (right) truePositives += 1;
        else if (matched) falseMatches += 1;
        else missed += 1;
        if (expected.method !== 'probabilistic') {
          carrierCases += 1;
          if (right) carrierRight += 1;
        }
      } else if (matched) {
        falseMatches += 1;
      }
    }
    const precision = truePositives / Math.max(1, truePositives + falseMatches);
    const recall = truePositives / Math.max(1, truePositives + missed);
    console.log(
      `attribution scenarios: ${outcomes.length}; precision ${(precision * 100).toFixed(1)} %, recall ${(recall * 100).toFixed(1)} %, ` +
        `carriers ${carrierRight}/${carrierCases}, false matches ${falseMatches}`,
    );
    expect(outcomes.length).toBeGreaterThanOrEqual(40);
    expect(carrierRight).toBe(carrierCases);
    expect(falseMatches).toBe(0);
    expect(precision).toBe(1);
  });
});
