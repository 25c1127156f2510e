/**
 * Apple's signed postbacks (docs/store-postbacks.md) through the worker's own fetch: Apple's own
 * samples counted once each, resent copies not counted again, tampered copies refused and never
 * counted, and the aggregates read back from the admin API. Postbacks signed with a local test key
 * reach the worker through `STORE_POSTBACK_KEYS`, as a configured key would.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StorePostbacksView } from '../../../shared/store-postbacks.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import {
  AAK_DEVELOPER_SETTINGS,
  AAK_PRODUCTION_ILLUSTRATION,
  SKAN_3_LOSS,
  SKAN_3_WIN,
  SKAN_4_COARSE,
  SKAN_4_FINE,
  SKAN_22,
} from '../../fixtures/apple-postbacks.ts';
import { signJws, signSkan, type TestSigner, testSigner } from '../../fixtures/postback-signer.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';

const SKAN = '/.well-known/skadnetwork/report-attribution/';
const AAK = '/.well-known/appattribution/report-attribution/';

let signer: TestSigner;
let keys: Partial<Env>;
beforeAll(async () => {
  signer = await testSigner();
  keys = {
    STORE_POSTBACK_KEYS: JSON.stringify({ 'skadnetwork/test': signer.publicKey, 'test-key/0': signer.publicKey }),
  };
});

function post(path: string, body: unknown, bindings: Partial<Env> = {}): Promise<Response> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return fetchWorker(
    `${ORIGIN}${path}`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: text },
    bindings,
  );
}

async function view(since = '1d'): Promise<StorePostbacksView> {
  const res = await fetchWorker(`${ORIGIN}/api/store-postbacks?since=${since}`, {
    headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return res.json<StorePostbacksView>();
}

const groupsOf = async (source: string) => (await view()).groups.filter((group) => group.source === source);
let unique = 0;
const freshId = () => `test-${Date.now()}-${++unique}`;

describe("Apple's sample SKAdNetwork postbacks", () => {
  it('counts each of the samples once, and a resent copy not again', async () => {
    for (const sample of [SKAN_4_FINE, SKAN_4_COARSE, SKAN_3_WIN, SKAN_3_LOSS]) {
      const res = await post(SKAN, sample);
      expect(res.status, sample['transaction-id']).toBe(200);
      expect(await res.json()).toEqual({ counted: true });
    }
    const again = await post(SKAN, SKAN_4_FINE);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ counted: false });
    // Same transaction id as the 3.0 winner: Apple's id, so it is the same postback.
    expect(await (await post(SKAN, SKAN_22)).json()).toEqual({ counted: false });
  });

  it('keeps the aggregates Apple gives, per day', async () => {
    await post(SKAN, SKAN_4_FINE);
    await post(SKAN, SKAN_4_COARSE);
    const today = new Date().toISOString().slice(0, 10);
    expect(await groupsOf('5239')).toEqual([
      {
        day: today,
        kind: 'skadnetwork',
        version: '4.0',
        source: '5239',
        publisher: 'example.com',
        conversionValue: 63,
        coarseValue: null,
        sequenceIndex: 0,
        countryCode: null,
        reengagement: false,
        won: true,
        postbacks: 1,
      },
    ]);
    expect(await groupsOf('39')).toMatchObject([{ coarseValue: 'high', conversionValue: null, postbacks: 1 }]);
  });

  it('accepts the path without its trailing slash', async () => {
    const signature = await signSkan(signer, ['4.0', 'net', '4321', 7, 'slashless-1', false, 'a.example', 1, true, 1]);
    const res = await post(SKAN.slice(0, -1), slashless(signature), keys);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ counted: true });
  });
});

function slashless(signature: string) {
  return {
    version: '4.0',
    'ad-network-id': 'net',
    'source-identifier': '4321',
    'app-id': 7,
    'transaction-id': 'slashless-1',
    redownload: false,
    'source-domain': 'a.example',
    'fidelity-type': 1,
    'did-win': true,
    'postback-sequence-index': 1,
    'attribution-signature': signature,
  };
}

describe('tampered SKAdNetwork postbacks', () => {
  const tampered: [string, Record<string, unknown>][] = [
    ['a changed source identifier', { ...SKAN_4_FINE, 'source-identifier': '5238', 'transaction-id': freshId() }],
    ['a changed app id', { ...SKAN_4_FINE, 'app-id': 525463030 }],
    ['a changed transaction id', { ...SKAN_4_COARSE, 'transaction-id': '6aafb7a5-0170-41b5-bbe4-fe71dedf1e99' }],
    ['a lost did-win', { ...SKAN_3_WIN, 'did-win': false, 'transaction-id': freshId() }],
    [
      'a changed postback sequence index',
      { ...SKAN_4_FINE, 'postback-sequence-index': 1, 'transaction-id': freshId() },
    ],
    [
      'a flipped signature byte',
      { ...SKAN_4_FINE, 'attribution-signature': flip(SKAN_4_FINE['attribution-signature']) },
    ],
  ];
  for (const [what, body] of tampered) {
    it(`refuses ${what} with 400 and counts nothing`, async () => {
      const before = (await view()).days.reduce((sum, day) => sum + day.skadnetwork, 0);
      const res = await post(SKAN, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "attribution-signature: does not verify with Apple's key" });
      expect((await view()).days.reduce((sum, day) => sum + day.skadnetwork, 0)).toBe(before);
    });
  }

  it('refuses a postback without a signature', async () => {
    const { 'attribution-signature': _, ...unsigned } = { ...SKAN_4_FINE, 'transaction-id': freshId() };
    const res = await post(SKAN, unsigned);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'attribution-signature: missing' });
  });

  it('refuses a signature that is not DER', async () => {
    const res = await post(SKAN, { ...SKAN_4_FINE, 'attribution-signature': 'bm90IGEgc2lnbmF0dXJl' });
    expect(await res.json()).toEqual({ error: 'attribution-signature: not a base64 DER ECDSA signature' });
  });

  it("refuses versions signed with Apple's P-192 key, and versions it does not know", async () => {
    const old = await post(SKAN, { ...SKAN_22, version: '2.0' });
    expect(old.status).toBe(400);
    expect(await old.json()).toEqual({
      error: "version: 2.0 postbacks are signed with Apple's P-192 key, which is not verified here",
    });
    const unknown = await post(SKAN, { ...SKAN_4_FINE, version: '9.9' });
    expect(await unknown.json()).toEqual({ error: 'version: must be one of 2.1, 2.2, 3.0, 4.0' });
  });

  it('refuses a postback missing a field its version signs, and a body that is not JSON', async () => {
    const { 'did-win': _, ...noWin } = SKAN_3_WIN;
    expect(await (await post(SKAN, noWin)).json()).toEqual({ error: 'did-win: required in a version 3.0 postback' });
    expect(await (await post(SKAN, '{"version":')).json()).toEqual({ error: 'body: must be JSON' });
    expect(await (await post(SKAN, { ...SKAN_4_FINE, 'app-id': -1 })).json()).toEqual({
      error: 'app-id: must be a non-negative integer',
    });
  });
});

describe('SKAdNetwork postbacks signed with a configured key', () => {
  it('counts a version 4 postback from an app, with its source app id', async () => {
    const id = freshId();
    const values = ['4.0', 'net.example', '4711', 42, id, true, 99, 0, true, 2];
    const body = {
      version: '4.0',
      'ad-network-id': 'net.example',
      'source-identifier': '4711',
      'app-id': 42,
      'transaction-id': id,
      redownload: true,
      'source-app-id': 99,
      'fidelity-type': 0,
      'did-win': true,
      'postback-sequence-index': 2,
      'coarse-conversion-value': 'low',
      'attribution-signature': await signSkan(signer, values),
    };
    expect(await (await post(SKAN, body, keys)).json()).toEqual({ counted: true });
    expect(await groupsOf('4711')).toMatchObject([
      { publisher: '99', sequenceIndex: 2, reengagement: true, coarseValue: 'low', postbacks: 1 },
    ]);
    // Without the configured key the same postback is Apple's to sign, and Apple did not.
    expect((await post(SKAN, { ...body, 'transaction-id': freshId() })).status).toBe(400);
  });

  it('ignores a configured key that is not an Apple production id in production', async () => {
    const id = freshId();
    const signature = await signSkan(signer, ['4.0', 'net', '4321', 7, id, false, 'a.example', 1, true, 1]);
    const body = { ...slashless(signature), 'transaction-id': id };
    const production = { ...keys, LANDER_ENV: 'production' };
    expect((await post(SKAN, body, production)).status).toBe(400);
    const override = {
      LANDER_ENV: 'production',
      STORE_POSTBACK_KEYS: JSON.stringify({ 'skadnetwork/p256': signer.publicKey }),
    };
    expect(await (await post(SKAN, body, override)).json()).toEqual({ counted: true });
  });
});

describe('AdAttributionKit postbacks', () => {
  const payload = (id: string, source: string) => ({
    'postback-identifier': id,
    'ad-network-identifier': 'net.example',
    'source-identifier': source,
    'advertised-item-identifier': 684939,
    'publisher-item-identifier': 5838492,
    'marketplace-identifier': 'com.apple.AppStore',
    'impression-type': 'app-impression',
    'conversion-type': 're-engagement',
    'did-win': true,
    'postback-sequence-index': 1,
  });

  it("counts Apple's developer-settings sample in development, once, with its unsigned values", async () => {
    expect(await (await post(AAK, AAK_DEVELOPER_SETTINGS)).json()).toEqual({ counted: true });
    expect(await (await post(AAK, AAK_DEVELOPER_SETTINGS)).json()).toEqual({ counted: false });
    expect(await groupsOf('1234')).toMatchObject([
      { kind: 'adattributionkit', publisher: '0', conversionValue: 24, countryCode: 'US', reengagement: true },
    ]);
  });

  it("refuses Apple's development keys in production", async () => {
    const res = await post(AAK, AAK_DEVELOPER_SETTINGS, { LANDER_ENV: 'production' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "jws-string: kid is not one of Apple's keys" });
  });

  it("refuses Apple's production-key illustration, which does not verify", async () => {
    const res = await post(AAK, AAK_PRODUCTION_ILLUSTRATION);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "jws-string: does not verify with Apple's key apple-cas-identifier/0" });
    expect(await groupsOf('8344')).toEqual([]);
  });

  it('refuses a tampered payload, a missing JWS, and alg other than ES256', async () => {
    const [header, body, signature] = AAK_DEVELOPER_SETTINGS['jws-string'].split('.');
    const changed = btoa(atob(body ?? '').replace('"1234"', '"1235"')).replace(/=+$/, '');
    const tampered = await post(AAK, { 'jws-string': `${header}.${changed}.${signature}` });
    expect(tampered.status).toBe(400);
    expect(await groupsOf('1235')).toEqual([]);
    expect(await (await post(AAK, { 'country-code': 'US' })).json()).toEqual({ error: 'jws-string: missing' });
    const none = await signJws(signer, 'test-key/0', payload(freshId(), '2001'), 'none');
    expect(await (await post(AAK, { 'jws-string': none }, keys)).json()).toEqual({
      error: 'jws-string: alg must be ES256',
    });
  });

  it('counts a postback signed with a configured key, chosen by kid', async () => {
    const jws = await signJws(signer, 'test-key/0', payload(freshId(), '2002'));
    const stanza = {
      'jws-string': jws,
      'coarse-conversion-value': 'medium',
      'country-code': 'DE',
      'ad-interaction-type': 'view',
    };
    const res = await post(AAK.slice(0, -1), stanza, keys);
    expect(await res.json()).toEqual({ counted: true });
    expect(await groupsOf('2002')).toMatchObject([
      { kind: 'adattributionkit', publisher: '5838492', coarseValue: 'medium', countryCode: 'DE', sequenceIndex: 1 },
    ]);
    const otherKid = await signJws(signer, 'apple-cas-identifier/0', payload(freshId(), '2003'));
    expect((await post(AAK, { 'jws-string': otherKid }, keys)).status).toBe(400);
  });
});

describe('the store', () => {
  it('answers 503 when D1 is down, so Apple sends the postback again', async () => {
    const broken = new Proxy(env.FUNNEL_DB, {
      get: () => () => {
        throw new Error('D1 unavailable (injected)');
      },
    });
    const res = await post(SKAN, { ...SKAN_4_FINE }, { FUNNEL_DB: broken });
    expect(res.status).toBe(503);
  });

  it('refuses a body over 16 kB with 413', async () => {
    const res = await post(SKAN, { ...SKAN_4_FINE, padding: 'x'.repeat(17 * 1024) });
    expect(res.status).toBe(413);
  });
});

function flip(base64: string): string {
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
  return btoa(String.fromCharCode(...bytes));
}
