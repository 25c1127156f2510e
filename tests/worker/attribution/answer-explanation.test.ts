/**
 * Why an answer (docs/attribution.md, "Why an answer"): what each carrier was worth, what the
 * install's network held on the probabilistic path, shown to a test device and kept for the
 * operator's lookup (`GET /api/installs`), with nothing personal in it.
 */
import { describe, expect, it } from 'vitest';
import type { Explanation } from '../../../shared/install-explanation.ts';
import { installBody, newClickId, PHONES, type Phone, registerTestDevice } from '../../fixtures/fake-app.ts';
import {
  adminGet,
  appCall,
  campaign,
  carrierLink,
  click,
  issueClickId,
  network,
  newInstallId,
  send,
} from '../app-calls.ts';
import { inBucket } from '../attribution-storage.ts';

const APP = 'com.pebble.notes';
type Explain = Explanation & { summary: string[] };

/** A test install of `phone` from `address`, its device registered first: its answer and explanation. */
async function testInstall(
  installId: string,
  carriers?: Parameters<typeof installBody>[2],
  address?: string,
  phone: Phone = PHONES.iPhone15,
) {
  await registerTestDevice(send, installId);
  const answer = await appCall('/api/a/install', { ...installBody(phone, installId, carriers), test: true }, address);
  const { explain, ...rest } = answer ?? {};
  return { answer: rest, explain: explain as Explain };
}

/** A token with one character changed: its signature no longer verifies. */
const tampered = (token: string) => `${token.slice(0, 30)}${token[30] === 'A' ? 'B' : 'A'}${token.slice(31)}`;

describe('the carriers of an answer', () => {
  it('says which carrier answered, which was not needed and why the others were no carriers', async () => {
    const at = network(10);
    const d = campaign({ channel: 'explained' });
    const used = await click(PHONES.galaxyS23, at(1), { d });
    const { answer, explain } = await testInstall(
      newInstallId(),
      {
        apk: 'not a carrier at all',
        harmonyLink: carrierLink(`short.${d}`),
        playReferrer: `${used.clickId}.${d}`,
        clipboard: carrierLink(`${newClickId()}.${d}`),
      },
      at(1),
      PHONES.galaxyS23,
    );
    expect(answer).toMatchObject({ matched: true, method: 'referrer', clickId: used.clickId });
    expect(explain.carriers).toEqual([
      { source: 'apk', verdict: 'not-a-carrier' },
      { source: 'harmonyLink', verdict: 'not-a-carrier' },
      { source: 'playReferrer', verdict: 'used', tapRecorded: true },
      { source: 'clipboard', verdict: 'unused' },
    ]);
    expect(explain.network).toBeNull();
    expect(explain.summary).toEqual([
      'APK stamp: not a carrier',
      'HarmonyOS link: not a carrier',
      'Play referrer: valid, answered',
      'Clipboard: valid, not needed',
    ]);
  });

  it('tells a bad signature and a click id that is no click id apart, then explains the fallback', async () => {
    const at = network(10);
    const d = campaign({ channel: 'real' });
    const { clickId } = await click(PHONES.iPhone15, at(2), { d });
    const badId = `${'A'.repeat(21)}B`;
    const { answer, explain } = await testInstall(
      newInstallId(),
      { apk: `${badId}.${d}`, clipboard: carrierLink(`${clickId}.${tampered(d)}`) },
      at(2),
    );
    expect(answer).toMatchObject({ matched: true, method: 'probabilistic', clickId, data: { channel: 'real' } });
    expect(explain.carriers).toEqual([
      { source: 'apk', verdict: 'bad-click-id' },
      { source: 'clipboard', verdict: 'bad-signature' },
    ]);
    expect(explain.network).toMatchObject({ outcome: 'matched', candidates: 1, people: 1, taps: 1, differ: {} });
    expect(explain.summary).toContain('Clipboard: campaign signature does not verify');
  });

  it("says when a carrier's tap was never recorded", async () => {
    const clickId = await issueClickId();
    const { explain } = await testInstall(newInstallId(), { clipboard: carrierLink(clickId) }, network(10)(3));
    expect(explain.carriers).toEqual([{ source: 'clipboard', verdict: 'used', tapRecorded: false }]);
    expect(explain.summary[0]).toBe('Clipboard: valid, answered (its tap was never recorded)');
  });

  it('says when a click id was never issued nor tapped, and when its click credited another install', async () => {
    const at = network(10);
    const forged = await testInstall(newInstallId(), { clipboard: carrierLink(newClickId()) }, at(4));
    expect(forged.explain.carriers).toEqual([{ source: 'clipboard', verdict: 'unissued' }]);
    expect(forged.explain.summary[0]).toBe('Clipboard: a click id Lander never issued');
    const clickId = await issueClickId();
    expect(
      await appCall(
        '/api/a/install',
        installBody(PHONES.iPhone15, newInstallId(), { clipboard: carrierLink(clickId) }),
        at(5),
      ),
    ).toMatchObject({ matched: true, clickId });
    const second = await testInstall(newInstallId(), { clipboard: carrierLink(clickId) }, at(6));
    expect(second.answer).toEqual({ matched: false, reason: 'claimed' });
    expect(second.explain.carriers).toEqual([{ source: 'clipboard', verdict: 'claimed' }]);
    expect(second.explain.summary[0]).toBe('Clipboard: its click already credited another install');
  });
});

describe('the probabilistic path', () => {
  it('ambiguous: how many taps, by how many people, within how many minutes', async () => {
    const at = network(10);
    await click(PHONES.iPhone15, at(4), { visitorId: 'ann' });
    await click(PHONES.iPhone15, at(5), { visitorId: 'bob' });
    await inBucket(at(4), 'UPDATE clicks SET at = at - 240000 WHERE visitor = (SELECT MIN(visitor) FROM clicks)');
    const { answer, explain } = await testInstall(newInstallId(), undefined, at(6));
    expect(answer).toEqual({ matched: false, reason: 'ambiguous' });
    expect(explain.network).toMatchObject({ outcome: 'ambiguous', taps: 2, candidates: 2, people: 2, spanMinutes: 4 });
    expect(explain.summary).toContain(
      '2 taps by 2 people on this network within 4 min look like this device: Lander never guesses between people.',
    );
  });

  it('none: how many taps the network held and the first fact each differed by', async () => {
    const at = network(10);
    await click(PHONES.galaxyS23, at(7));
    await click(PHONES.iPhone15, at(8), { landscape: false });
    await click({ ...PHONES.iPhone15, tz: 'Europe/Berlin' }, at(9));
    await inBucket(
      at(8),
      "UPDATE clicks SET tuple = json_set(tuple, '$.short', 320) WHERE family = 'ios' AND tz != 'Europe/Berlin'",
    );
    const { answer, explain } = await testInstall(newInstallId(), undefined, at(10));
    expect(answer).toEqual({ matched: false, reason: 'none' });
    expect(explain.network).toMatchObject({
      outcome: 'none',
      taps: 3,
      candidates: 0,
      people: 0,
      ageMinutes: null,
      differ: { os: 1, timeZone: 1, screen: 1 },
    });
    expect(explain.summary).toContain('Taps unlike this device: OS 1, time zone 1, screen size 1.');
  });

  it('expired: the look-alike taps older than the window, and how old', async () => {
    const at = network(10);
    await click(PHONES.iPhone15, at(11));
    await inBucket(at(11), 'UPDATE clicks SET at = at - ?', 3 * 60 * 60 * 1000);
    const { answer, explain } = await testInstall(newInstallId(), undefined, at(11));
    expect(answer).toEqual({ matched: false, reason: 'expired' });
    expect(explain.network).toMatchObject({
      outcome: 'expired',
      expired: 1,
      candidates: 0,
      ageMinutes: 180,
      windowMinutes: 120,
    });
  });

  it('says when the request showed no network', async () => {
    const { answer, explain } = await testInstall(newInstallId());
    expect(answer).toEqual({ matched: false, reason: 'none' });
    expect(explain).toMatchObject({ carriers: [], network: { outcome: 'no-network' } });
  });
});

describe('GET /api/installs', () => {
  it("shows any install's answer and why, a real one too, and nothing that names the person", async () => {
    const at = network(10);
    const installId = newInstallId();
    await click(PHONES.iPhone15, at(12), { visitorId: 'visitor-carol' });
    const answer = await appCall('/api/a/install', installBody(PHONES.iPhone15, installId), at(12));
    expect(answer).not.toHaveProperty('explain');
    const res = await adminGet(`/api/installs?app=${APP}&installId=${installId}`);
    expect(res.status).toBe(200);
    const kept = (await res.json()) as Record<string, unknown>;
    expect(kept).toMatchObject({ answer, test: false, answeredAt: expect.any(String) });
    expect(kept.explain).toMatchObject({ network: { outcome: 'matched', candidates: 1 } });
    const text = JSON.stringify(kept);
    for (const personal of [installId, at(12), at(12).split('.').slice(0, 3).join('.'), 'visitor-carol']) {
      expect(text).not.toContain(personal);
    }
  });

  it('answers 404 for an install it never answered, 400 without an install id, 401 without a token', async () => {
    expect((await adminGet(`/api/installs?app=${APP}&installId=${newInstallId()}`)).status).toBe(404);
    const missing = await adminGet(`/api/installs?app=${APP}`);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toContain('installId');
    expect((await adminGet(`/api/installs?app=${APP}&installId=${newInstallId()}`, 'nope')).status).toBe(401);
  });
});
