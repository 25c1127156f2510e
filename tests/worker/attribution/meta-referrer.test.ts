/**
 * Meta's install referrer through the real worker (docs/attribution.md#metas-install-referrer): the
 * scenario table — present, absent, tampered, another app's key, too old, the click after the install
 * began, and against a Lander tap before and after it — with Meta's answers' precision, and the
 * click-injection rule on Meta's click time (docs/fraud.md).
 */
import { exports } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_DECODE_KEY, DEV_META_REFERRER_KEY } from '../../../worker/settings.ts';
import {
  type Carriers,
  type InstallReferrerTimes,
  installBody,
  issuedClickId,
  PHONES,
  type Send,
  tap,
} from '../../fixtures/fake-app.ts';
import { META_CAMPAIGN, sealMetaReferrer, tamperMetaReferrer } from '../../fixtures/meta-referrer.ts';
import { expectConforms } from '../conforms.ts';
import { ageClick, flagsOf, reasonsOf } from '../fraud-fixtures.ts';
import { ORIGIN } from '../helpers.ts';

const send: Send = (path, body, headers) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );

const phone = PHONES.galaxyS23;
let networks = 0;
/** An address on a network of its own: no look-alike tap of another scenario answers. */
const address = () => `10.47.${++networks}.9`;
let installs = 0;
const installId = () => `meta-${++installs}-${crypto.randomUUID()}`;
const OTHER_APP_KEY = 'aa'.repeat(32);
const seconds = (msAgo: number) => Math.floor((Date.now() - msAgo) / 1000);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let nonces = 0;
/** A fresh nonce per referrer, as Meta seals each ad's data anew. */
const seal = (key = DEV_META_REFERRER_KEY) =>
  sealMetaReferrer({ ...META_CAMPAIGN }, key, (++nonces).toString(16).padStart(24, '0'));

interface Launch {
  meta?: { installReferrer: string; actualTimestamp?: number; isCt?: boolean };
  carriers?: Carriers;
  referrer?: InstallReferrerTimes;
  at?: string;
  id?: string;
}

async function launch({ meta, carriers, referrer, at = address(), id = installId() }: Launch) {
  const body = { ...installBody(phone, id, carriers, undefined, referrer), ...(meta ? { metaReferrer: meta } : {}) };
  const response = await send('/api/a/install', body, { 'cf-connecting-ip': at });
  expect(response.status).toBe(200);
  return { id, answer: (await expectConforms(response, '/api/a/install')) as Record<string, unknown> };
}

/** A recorded Lander tap with a campaign, on `at`, and the clipboard carrier that names it. */
async function landerTap(at: string) {
  const clickId = await issuedClickId((path) =>
    exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers: { 'cf-connecting-ip': at } })),
  );
  const d = await encryptToken(JSON.stringify({ channel: 'spring-sale' }), DEV_DECODE_KEY);
  const { response } = tap(send, phone, at, { clickId, d });
  expect((await response).status).toBe(204);
  return { clickId, carrier: `https://lander.test/i/${clickId}.${d}` };
}

const expectedMeta = { ...META_CAMPAIGN, is_ct: '1' };
/** Each scenario: whether Meta should have answered, and whether it did. */
const judged: { name: string; expected: boolean; got: boolean }[] = [];
const judge = (name: string, answer: Record<string, unknown>, expected: boolean) => {
  judged.push({ name, expected, got: answer.method === 'meta' });
  expect(answer.method === 'meta', name).toBe(expected);
};

describe("Meta's install referrer: the scenario table", () => {
  it('present: a click-through 20 minutes ago answers `meta` with the ad, ad set and campaign ids as Meta names them', async () => {
    const actualTimestamp = seconds(20 * MINUTE);
    const { answer } = await launch({ meta: { installReferrer: await seal(), actualTimestamp, isCt: true } });
    judge('present', answer, true);
    expect(answer).toMatchObject({ matched: true, method: 'meta', confidence: 100, data: expectedMeta });
    expect(answer.clickedAt).toBe(new Date(actualTimestamp * 1000).toISOString());
    expect(answer.clickId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('a view-through within a day answers `meta` too, with `is_ct` 0', async () => {
    const meta = { installReferrer: await seal(), actualTimestamp: seconds(20 * 60 * MINUTE), isCt: false };
    const { answer } = await launch({ meta });
    judge('view-through within a day', answer, true);
    expect(answer.data).toEqual({ ...META_CAMPAIGN, is_ct: '0' });
  });

  it('absent: without a referrer (and no tap) the install is `none`', async () => {
    const { answer } = await launch({});
    judge('absent', answer, false);
    expect(answer).toEqual({ matched: false, reason: 'none' });
  });

  it('tampered: one hex digit of the sealed data changed, GCM refuses it, and nothing is credited', async () => {
    const installReferrer = tamperMetaReferrer(await seal());
    const { answer } = await launch({ meta: { installReferrer, actualTimestamp: seconds(MINUTE), isCt: true } });
    judge('tampered', answer, false);
    expect(answer).toEqual({ matched: false, reason: 'none' });
  });

  it("from another app: sealed under another app's key, it does not open", async () => {
    const meta = { installReferrer: await seal(OTHER_APP_KEY), actualTimestamp: seconds(MINUTE), isCt: true };
    const { answer } = await launch({ meta });
    judge('another app', answer, false);
    expect(answer).toEqual({ matched: false, reason: 'none' });
  });

  it("too old: a click 8 days ago, a view 2 days ago, or no time at all are past Meta's window", async () => {
    for (const [name, meta] of [
      ['click 8 days ago', { actualTimestamp: seconds(8 * DAY), isCt: true }],
      ['view 2 days ago', { actualTimestamp: seconds(2 * DAY), isCt: false }],
      ['no time', {}],
    ] as const) {
      const { answer } = await launch({ meta: { installReferrer: await seal(), ...meta } });
      judge(`too old: ${name}`, answer, false);
      expect(answer, name).toEqual({ matched: false, reason: 'none' });
    }
  });

  it("click after install: answered `meta`, and flagged click_injection on Meta's click time", async () => {
    const began = seconds(10 * MINUTE);
    const meta = { installReferrer: await seal(), actualTimestamp: began + 30, isCt: true };
    const referrer = { installBeginTimestampServerSeconds: began, installBeginTimestampSeconds: began };
    const { id, answer } = await launch({ meta, referrer });
    judge('click after install', answer, true);
    expect(await flagsOf(id)).toEqual(['click_injection']);
    expect(await reasonsOf(id)).toEqual(["Meta's ad click 30 s after install began"]);
  });

  it('an honest Meta click before install-begin is never flagged', async () => {
    const began = seconds(10 * MINUTE);
    const meta = { installReferrer: await seal(), actualTimestamp: began - 120, isCt: true };
    const { id, answer } = await launch({ meta, referrer: { installBeginTimestampServerSeconds: began } });
    judge('honest click before install', answer, true);
    expect(await flagsOf(id)).toEqual([]);
  });

  it('a Lander tap later than the Meta ad: the Lander carrier answers', async () => {
    const at = address();
    const { carrier } = await landerTap(at);
    const meta = { installReferrer: await seal(), actualTimestamp: seconds(60 * MINUTE), isCt: true };
    const { answer } = await launch({ meta, carriers: { clipboard: carrier }, at });
    judge('Lander tap later', answer, false);
    expect(answer).toMatchObject({ matched: true, method: 'clipboard', data: { channel: 'spring-sale' } });
  });

  it('a Lander tap earlier than the Meta ad: Meta answers', async () => {
    const at = address();
    const { clickId, carrier } = await landerTap(at);
    await ageClick(clickId, at, 3 * 60 * MINUTE);
    const meta = { installReferrer: await seal(), actualTimestamp: seconds(30 * MINUTE), isCt: true };
    const { answer } = await launch({ meta, carriers: { clipboard: carrier }, at });
    judge('Lander tap earlier', answer, true);
    expect(answer).toMatchObject({ matched: true, method: 'meta', data: expectedMeta });
  });

  it('one referrer credits one install: the same referrer on another install is `claimed`', async () => {
    const meta = { installReferrer: await seal(), actualTimestamp: seconds(5 * MINUTE), isCt: true };
    const first = await launch({ meta });
    judge('first of a copied referrer', first.answer, true);
    const again = await launch({ meta, id: first.id });
    expect(again.answer).toEqual(first.answer);
    const copy = await launch({ meta });
    judge('copied referrer', copy.answer, false);
    expect(copy.answer).toEqual({ matched: false, reason: 'claimed' });
  });

  it('refuses a malformed referrer field with 400 naming it', async () => {
    const body = { ...installBody(phone, installId()), metaReferrer: { installReferrer: '', actualTimestamp: -1 } };
    const response = await send('/api/a/install', body, { 'cf-connecting-ip': address() });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^metaReferrer\./);
  });
});

afterAll(() => {
  const answered = judged.filter((row) => row.got);
  const right = answered.filter((row) => row.expected);
  const due = judged.filter((row) => row.expected);
  console.log(
    `Meta referrer scenarios: ${judged.length}; precision ${right.length}/${answered.length}, recall ${right.length}/${due.length}`,
  );
  expect(right.length).toBe(answered.length);
});
