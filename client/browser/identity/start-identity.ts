/**
 * Resolves both ids in the browser after hydration (docs/identity.md) and puts them, with their
 * sources, into the learned state. Loaded with a dynamic import once the page is idle (enhance.ts),
 * so none of this (nor ofetch, nor FingerprintJS) is in the first visit's JavaScript.
 */

import { campaignQuery } from '../../../shared/campaign.ts';
import { allows } from '../../../shared/consent.ts';
import { consentOf } from '../../../shared/consent-strings.ts';
import type { Handoff } from '../../../shared/handoff.ts';
import { FINGERPRINT_ID_KEY, type Identity } from '../../../shared/identity.ts';
import { http } from '../../app/http-client.ts';
import type { LearnedStore } from '../../app/store.tsx';
import { pageConsent } from '../page-consent.ts';
import { documentCookies, localStore } from './browser-storage.ts';
import { fingerprintjsVisitorId, resolveFingerprintId } from './fingerprint-id.ts';
import { resolveVisitorId } from './visitor-id.ts';

/** Forgets a fingerprint id kept before the visitor's consent said no. */
function forgetFingerprintId(): void {
  try {
    window.localStorage.removeItem(FINGERPRINT_ID_KEY);
  } catch {}
}

/**
 * Resolves both ids in parallel, learning each as it arrives; never rejects. `quiet` resolves once
 * the visitor leaves the page alone (`visitorQuiet` of client/browser/idle.ts, handed over by
 * enhance.ts, whose chunk holds it: imported here, it would make this chunk import that one).
 */
export async function startIdentity(
  { traceOrigin, campaign }: Handoff,
  learned: LearnedStore,
  quiet: () => Promise<void>,
): Promise<void> {
  const setIdentity = (patch: Partial<Identity>) =>
    learned.update({ identity: { ...learned.get().identity, ...patch } });
  await Promise.all([
    resolveVisitorId({
      storage: localStore,
      cookies: documentCookies,
      http,
      traceOrigin,
      queryData: campaignQuery(campaign),
    }).then(({ id, source }) => setIdentity({ visitorId: id, visitorIdSource: source })),
    // A stored id is read at once; computing one waits until the visitor leaves the page alone. A
    // visitor whose consent stops it gets none: FingerprintJS is never loaded, a stored id is forgotten.
    allows(consentOf(pageConsent()), 'fingerprint')
      ? resolveFingerprintId({ storage: localStore, compute: () => quiet().then(fingerprintjsVisitorId) }).then(
          ({ id, source }) => setIdentity({ fingerprintId: id, fingerprintIdSource: source }),
        )
      : forgetFingerprintId(),
  ]);
  // A marker for tools and tests: both ids are final for this page view.
  document.documentElement.dataset.identity = 'resolved';
}
