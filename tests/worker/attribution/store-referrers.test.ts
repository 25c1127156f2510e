/**
 * The makers' stores' install referrers through the real worker (docs/attribution.md#the-stores):
 * the bodies the Android SDK sends for AppGallery's referrer and Honor's channel
 * (sdk/android StoreReferrersTest), scenario by scenario — the carrier present, absent, tampered, from
 * another app, too old, clicked after the install — and the store channel counted in the funnel.
 * Every carrier answer names the tap's own click (100 % precision).
 */
import { env, exports } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { CARRIER_SLOT, fillCarrier } from '../../../shared/attribution.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { writeRollup } from '../../../worker/funnel/consume-batch.ts';
import type { FunnelMessage } from '../../../worker/funnel/events.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { DEMO as demo } from '../../fixtures/config.ts';
import { installBody, issuedClickId, PHONES, type Send, tap } from '../../fixtures/fake-app.ts';
import { expectConforms } from '../conforms.ts';
import { recordingQueue } from '../faulty-bindings.ts';
import { flagsOf } from '../fraud-fixtures.ts';
import { dailyCounts } from '../funnel-fixtures.ts';
import { clearConfig, fetchWorker, get, handoffOf, ORIGIN, storeConfig } from '../helpers.ts';

const send: Send = (path, body, headers) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );

let networks = 0;
/** An address on a /24 of its own: no other scenario's taps look alike. */
const address = () => `10.147.${++networks}.9`;
const campaign = (fields: Record<string, string>) => encryptToken(JSON.stringify(fields), DEV_DECODE_KEY);
const SPRING = { channel: 'spring-sale', inviter: 'ann' };
const installId = () => `store-${crypto.randomUUID()}`;
const seconds = (ms: number) => Math.floor(ms / 1000);
const MINUTE = 60_000;
const PHONE = PHONES.galaxyS23;
const headersOf = (at: string) => ({ 'cf-connecting-ip': at, 'user-agent': 'PebbleNotes/2.4 okhttp/4.12.0' });

/** A tap on the page from `at` with an id the worker issued; its carrier. */
async function tapped(at: string, d = campaign(SPRING)) {
  const clickId = await issuedClickId((path) =>
    exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers: { 'cf-connecting-ip': at } })),
  );
  const { response } = tap(send, PHONE, at, { clickId, d, action: 'store' });
  expect((await response).status).toBe(204);
  return { clickId, carrier: `${clickId}.${d}` };
}

async function install(at: string, extra: Record<string, unknown>, id = installId()) {
  const response = await send('/api/a/install', { ...installBody(PHONE, id), ...extra }, headersOf(at));
  expect(response.status).toBe(200);
  return (await expectConforms(response, '/api/a/install')) as Record<string, unknown>;
}

const results: { name: string; carrierAnswer: boolean; right: boolean }[] = [];
function judge(name: string, answer: Record<string, unknown>, expected: Record<string, unknown>) {
  expect(answer).toMatchObject(expected);
  const carrierAnswer = answer.matched === true && answer.method !== 'probabilistic';
  results.push({ name, carrierAnswer, right: !carrierAnswer || answer.clickId === expected.clickId });
}

describe("AppGallery's referrer (carriers.appGallery)", () => {
  it('present: matched by appgallery with the campaign, confidence 100', async () => {
    const at = address();
    const { clickId, carrier } = await tapped(at);
    const now = Date.now();
    const answer = await install(at, {
      carriers: { appGallery: carrier },
      installReferrer: {
        referrerClickTimestampSeconds: seconds(now - 5 * MINUTE),
        installBeginTimestampSeconds: seconds(now - MINUTE),
      },
      storeChannel: { store: 'appgallery', channel: 'C10086' },
    });
    judge('present', answer, { matched: true, method: 'appgallery', confidence: 100, clickId, data: SPRING });
  });

  it('absent: no carrier; the store channel alone matches nothing on a network without taps', async () => {
    const answer = await install(address(), { storeChannel: { store: 'appgallery', channel: 'C10086' } });
    judge('absent', answer, { matched: false, reason: 'none' });
  });

  it('tampered: a token whose signature fails is no carrier', async () => {
    const at = address();
    const { carrier } = await tapped(`10.148.${networks}.1`);
    const tampered = `${carrier.slice(0, -4)}AAAA`;
    judge('tampered', await install(at, { carriers: { appGallery: tampered } }), { matched: false, reason: 'none' });
  });

  it('from another app: a carrier another install holds is claimed, never credited twice', async () => {
    const at = address();
    const { clickId, carrier } = await tapped(at);
    judge('first', await install(at, { carriers: { appGallery: carrier } }), {
      matched: true,
      method: 'appgallery',
      clickId,
    });
    // The same carrier read on another phone (copied, or a provider that answers for another app).
    judge('another', await install(address(), { carriers: { appGallery: carrier } }), {
      matched: false,
      reason: 'claimed',
    });
  });

  it('from another app: an install of an app Lander does not know is refused, naming app', async () => {
    const { carrier } = await tapped(address());
    const response = await send(
      '/api/a/install',
      { ...installBody(PHONE, installId(), undefined, 'com.example.other'), carriers: { appGallery: carrier } },
      headersOf(address()),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^app:/);
  });

  it('a forged click id on a real campaign credits nothing (unissued)', async () => {
    const forged = `AAAAAAAAAAAAAAAAAAAAAA.${campaign(SPRING)}`;
    judge('forged', await install(address(), { carriers: { appGallery: forged } }), { matched: false, reason: 'none' });
  });

  it('too old: the SDK sends nothing of it, so the install is unmatched', async () => {
    const at = address();
    await tapped(at);
    // StoreReferrersTest: a click more than 90 days before the install sends no carrier, channel or time.
    const answer = await install(at, {});
    expect(answer.matched === false || answer.method === 'probabilistic').toBe(true);
  });

  it('clicked after the install: the carrier still answers, and the click-injection rule flags it', async () => {
    const at = address();
    const { clickId, carrier } = await tapped(at);
    const now = Date.now();
    const id = installId();
    const answer = await install(
      at,
      {
        carriers: { appGallery: carrier },
        installReferrer: {
          referrerClickTimestampSeconds: seconds(now - MINUTE),
          installBeginTimestampSeconds: seconds(now - 3 * MINUTE),
        },
      },
      id,
    );
    judge('click after install', answer, { matched: true, method: 'appgallery', clickId });
    expect(await flagsOf(id, 1)).toContain('click_injection');
  });

  it('the Play referrer answers before AppGallery when both came', async () => {
    const at = address();
    const { clickId, carrier } = await tapped(at);
    judge('both', await install(at, { carriers: { playReferrer: carrier, appGallery: carrier } }), {
      matched: true,
      method: 'referrer',
      clickId,
    });
  });
});

describe('the store channel (storeChannel)', () => {
  async function counted(body: Record<string, unknown>, at = address()) {
    const funnel = recordingQueue(env.FUNNEL_QUEUE as Queue<FunnelMessage>);
    const response = await fetchWorker(
      `${ORIGIN}/api/a/install`,
      {
        method: 'POST',
        body: JSON.stringify({ ...installBody(PHONE, installId()), ...body }),
        headers: { 'content-type': 'application/json', ...headersOf(at) },
      },
      { FUNNEL_QUEUE: funnel.queue },
    );
    expect(response.status).toBe(200);
    await writeRollup(env.FUNNEL_DB, funnel.sent);
    return (await response.json()) as Record<string, unknown>;
  }

  it("Honor's channel counts the unmatched install under honor:<channel>", async () => {
    const channel = `h${crypto.randomUUID().slice(0, 8)}`;
    judge('honor', await counted({ storeChannel: { store: 'honor', channel } }), { matched: false, reason: 'none' });
    expect((await dailyCounts(`honor:${channel}`))['install:unmatched:none']).toBe(1);
  });

  it("AppGallery's channel counts under appgallery:<channel>, unless the carrier's campaign names a channel", async () => {
    const channel = `C${crypto.randomUUID().slice(0, 8)}`;
    await counted({ storeChannel: { store: 'appgallery', channel } });
    expect((await dailyCounts(`appgallery:${channel}`))['install:unmatched:none']).toBe(1);
    const at = address();
    const own = `own-${crypto.randomUUID().slice(0, 8)}`;
    const { carrier } = await tapped(at, campaign({ channel: own }));
    await counted({ carriers: { appGallery: carrier }, storeChannel: { store: 'appgallery', channel } }, at);
    expect((await dailyCounts(own))['install:appgallery']).toBe(1);
    expect((await dailyCounts(`appgallery:${channel}`))['install:appgallery']).toBeUndefined();
  });

  it('refuses a store or channel it does not know, naming the field', async () => {
    for (const storeChannel of [
      { store: 'xiaomi', channel: 'x' },
      { store: 'honor', channel: 'has space' },
      { store: 'honor', channel: 'x'.repeat(65) },
    ]) {
      const response = await send(
        '/api/a/install',
        { ...installBody(PHONE, installId()), storeChannel },
        headersOf(address()),
      );
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/^storeChannel\./);
    }
  });
});

describe("the page's AppGallery button (worker/attribution/page-links.ts)", () => {
  afterEach(clearConfig);
  const GALLERY = 'https://appgallery.huawei.com/app/detail?id=C110123456';
  const links = async (userAgent: string) => {
    await storeConfig({ ...demo, appData: demo.appData.map((item) => ({ ...item, appgallery_id: 'C110123456' })) });
    const { handoff } = handoffOf(await (await get(`/?d=${campaign(SPRING)}`, { userAgent })).text()) as {
      handoff: { download: { primary: { href: string } | null }; attribution: { links: Record<string, string> } };
    };
    return { primary: handoff.download.primary?.href, links: handoff.attribution.links };
  };

  it("hands HarmonyOS 4 AppGallery's attribution link with the carrier as its referrer", async () => {
    const { primary, links: templates } = await links(UA.harmony4);
    expect(primary).toBe(GALLERY);
    const template = templates[GALLERY] ?? '';
    expect(template).toBe(`hiapplink://com.huawei.appmarket?appId=C110123456&referrer=${CARRIER_SLOT}`);
    // The tap fills the slot with its carrier; AppGallery keeps it, and the app reads it back (StoreReferrersTest).
    const at = address();
    const { clickId, carrier } = await tapped(at);
    const referrer = new URL(fillCarrier(template, carrier)).searchParams.get('referrer') ?? '';
    judge('page to AppGallery', await install(at, { carriers: { appGallery: referrer } }), {
      matched: true,
      method: 'appgallery',
      clickId,
      data: SPRING,
    });
  });

  it('leaves HarmonyOS NEXT on the https link: its apps read App Linking', async () => {
    const { primary, links: templates } = await links(UA.harmonyNext);
    expect(primary).toBe(GALLERY);
    expect(templates[GALLERY]).toBeUndefined();
  });
});

describe('precision over the scenarios above', () => {
  it("every carrier answer names the tap's own click", () => {
    const carrierAnswers = results.filter((result) => result.carrierAnswer);
    expect(carrierAnswers.length).toBeGreaterThanOrEqual(4);
    expect(carrierAnswers.filter((result) => !result.right)).toEqual([]);
  });
});
