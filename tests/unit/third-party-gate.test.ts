/**
 * The one gate before any send to a third party (worker/attribution/third-party.ts): a sender is
 * reached only when the install's consent allows `thirdParty` (shared/consent.ts), and one failing
 * sender never keeps another from its send.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { allows, CONSENT_RULES, type ConsentSignal } from '../../shared/consent.ts';
import { sendToThirdParties, type ThirdPartyInstall } from '../../worker/attribution/third-party.ts';

const install: ThirdPartyInstall = {
  app: 'com.pebble.notes',
  platform: 'android',
  answer: { matched: false, reason: 'none' },
};
const signals = Object.keys(CONSENT_RULES) as ConsentSignal[];

describe('sendToThirdParties', () => {
  it('sends exactly when allows(consent, "thirdParty"), whatever the signals', async () => {
    await fc.assert(
      fc.asyncProperty(fc.subarray(signals), async (consent) => {
        const send = vi.fn(async () => {});
        const sent = await sendToThirdParties(consent, install, [{ name: 'network', send }]);
        const allowed = allows(consent, 'thirdParty');
        expect(sent).toBe(allowed ? 1 : 0);
        expect(send).toHaveBeenCalledTimes(allowed ? 1 : 0);
      }),
    );
  });

  it('stops for GPC and for a TCF string without purpose 2, and sends to every sender otherwise', async () => {
    const send = vi.fn(async () => {});
    const senders = [
      { name: 'a', send },
      { name: 'b', send },
    ];
    expect(await sendToThirdParties(['gpc'], install, senders)).toBe(0);
    expect(await sendToThirdParties(['tcf-purpose-2'], install, senders)).toBe(0);
    expect(await sendToThirdParties(['tcf-special-feature-2'], install, senders)).toBe(2);
    expect(send).toHaveBeenCalledWith(install);
  });

  it('counts a failing sender out without keeping the others from sending', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const send = vi.fn(async () => {});
    const failing = { name: 'down', send: async () => Promise.reject(new Error('502')) };
    expect(await sendToThirdParties([], install, [failing, { name: 'up', send }])).toBe(1);
    expect(send).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalledWith('Third-party send failed', 'down', 'Error: 502');
    error.mockRestore();
  });
});
