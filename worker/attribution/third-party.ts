/**
 * Sends to third parties (docs/privacy.md, "Consent"): an ad network's install postback, when one
 * exists. None does yet; webhooks go to the operator, who is no third party. Every sender is
 * registered here and reached only through `sendToThirdParties`, which asks the install's consent
 * first (`allows(consent, 'thirdParty')`), so no sender can forget to.
 */
import { allows, type Consent } from '../../shared/consent.ts';
import type { InstallAnswer, OS_FAMILIES } from '../facts.ts';

/** What a third party would be told of an install. */
export interface ThirdPartyInstall {
  app: string;
  platform: (typeof OS_FAMILIES)[number];
  answer: InstallAnswer;
}

/** One third party: its name and how it is sent an install. */
export interface ThirdPartySender {
  name: string;
  send(install: ThirdPartyInstall): Promise<void>;
}

/** The registered senders: none yet. */
export const thirdPartySenders: ThirdPartySender[] = [];

/**
 * Sends `install` to every sender when `consent` allows it; returns how many were sent. A failing
 * sender is logged and never keeps another from its send.
 */
export async function sendToThirdParties(
  consent: Consent,
  install: ThirdPartyInstall,
  senders: readonly ThirdPartySender[] = thirdPartySenders,
): Promise<number> {
  if (!allows(consent, 'thirdParty') || senders.length === 0) return 0;
  const sent = await Promise.allSettled(senders.map((sender) => sender.send(install)));
  sent.forEach((result, at) => {
    if (result.status === 'rejected')
      console.error('Third-party send failed', senders[at]?.name, String(result.reason));
  });
  return sent.filter((result) => result.status === 'fulfilled').length;
}
