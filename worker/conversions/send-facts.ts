/**
 * The conversions' listener (docs/conversions.md#what-is-sent): an install, an open and an app event
 * become a conversion event on the conversion queue, after the response. An install is sent only as
 * its consent allows sends to third parties (`allows(consent, 'thirdParty')`, docs/privacy.md,
 * "Consent"): one whose consent does not is never queued, and its opens and events are then sent
 * nothing either (fan-out.ts only sends an install's later events when its install was allowed).
 * Nothing personal leaves raw: the install is the webhooks' keyed hash, and no address or agent.
 */

import { toBase64Url } from '../../shared/base64url.ts';
import { allows } from '../../shared/consent.ts';
import type { AppEventReceived, InstallDecided, Listener, OpenDecided } from '../facts.ts';
import { boundedCache, CACHE_SHARES } from '../lib/bounded-cache.ts';
import { installHash } from '../webhooks/send-facts.ts';
import { withdrawInstall } from './fan-out.ts';
import type { ConversionEvent, ConversionEventMessage } from './messages.ts';

const report = (error: unknown) =>
  console.error('Conversion event not queued', error instanceof Error ? error.message : String(error));

const freshId = (): string => toBase64Url(crypto.getRandomValues(new Uint8Array(16)));

/** The conversion event of a fact; its id is the install's key or the app's event id, so a repeat is one event. */
export async function conversionOf(
  env: Env,
  tenant: string,
  fact: InstallDecided | OpenDecided | AppEventReceived,
): Promise<ConversionEvent> {
  const answer = fact.answer;
  const clickedAt = answer?.matched && answer.clickedAt ? Date.parse(answer.clickedAt) : null;
  const common = {
    at: fact.at,
    app: fact.app,
    install: await installHash(env, tenant, fact.app, fact.installId),
    clickedAt,
    country: fact.dims.country.slice(0, 8),
  };
  switch (fact.fact) {
    case 'install-decided':
      return { ...common, id: fact.key, kind: 'install', name: 'install', platform: fact.platform, ad: fact.ad };
    case 'open-decided':
      return { ...common, id: freshId(), kind: 'open', name: 'open', platform: null, ad: null };
    case 'app-event':
      return {
        ...common,
        // When it happened: the time the app sent with it, when it sent one (an app back online).
        at: fact.happened ?? fact.at,
        id: fact.id?.replace(/^event:/, '') ?? freshId(),
        kind: 'event',
        name: fact.name,
        platform: null,
        ad: fact.ad ?? null,
        // Its value, in whole minor units of its currency, when the app named one.
        ...(fact.currency !== undefined && fact.amount !== undefined
          ? { currency: fact.currency, amount: fact.amount }
          : {}),
      };
  }
}

// The installs this isolate has marked withdrawn: an app whose person said no sends that consent
// with every later call, and one D1 write marks the install for good (the write is idempotent).
const withdrawn = boundedCache<true>({ maxBytes: CACHE_SHARES.withdrawals, sizeOf: () => 8 });

/**
 * Marks `fact`'s install withdrawn (fan-out.ts): its consent, sent again with an open or an app event,
 * now stops sends to third parties, so nothing more of it is sent.
 */
async function withdraw(env: Env, tenant: string, fact: OpenDecided | AppEventReceived): Promise<void> {
  const install = await installHash(env, tenant, fact.app, fact.installId);
  const key = `${tenant}\u0000${install}`;
  if (withdrawn.get(key)) return;
  await withdrawInstall(env.FUNNEL_DB, tenant, install, fact.at);
  withdrawn.set(key, true);
}

/** Queues the conversion event of an install, an open or an app event; nothing else is a conversion. */
export const sendConversion: Listener = function sendConversion({ env, app, ctx }, fact) {
  if (fact.fact !== 'install-decided' && fact.fact !== 'open-decided' && fact.fact !== 'app-event') return;
  // The one gate (docs/privacy.md, "Consent"): an install whose consent stops third parties is never sent.
  if (fact.fact === 'install-decided' && !allows(fact.consent, 'thirdParty')) return;
  // Consent withdrawn later, with an open or an event: this one is not sent, nor anything after it.
  if (fact.fact !== 'install-decided' && fact.consent && !allows(fact.consent, 'thirdParty')) {
    ctx.waitUntil(withdraw(env, app, fact).catch(report));
    return;
  }
  ctx.waitUntil(
    conversionOf(env, app, fact)
      .then((event) => {
        const message: ConversionEventMessage = { k: 'event', tenant: app, event };
        return env.CONVERSION_QUEUE.send(message);
      })
      .catch(report),
  );
};
