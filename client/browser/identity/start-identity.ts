/**
 * Resolves both ids in the browser after hydration (docs/identity.md) and puts them, with their
 * sources, into the learned state. Loaded with a dynamic import once the page is idle (enhance.ts),
 * so none of this (nor ofetch, nor FingerprintJS) is in the first visit's JavaScript.
 */

import { campaignQuery } from '../../../shared/campaign.ts';
import type { Handoff } from '../../../shared/handoff.ts';
import type { Identity } from '../../../shared/identity.ts';
import { http } from '../../app/http-client.ts';
import type { LearnedStore } from '../../app/store.tsx';
import { documentCookies, localStore } from './browser-storage.ts';
import { fingerprintjsVisitorId, resolveFingerprintId } from './fingerprint-id.ts';
import { resolveVisitorId } from './visitor-id.ts';

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
    // A stored id is read at once; computing one waits until the visitor leaves the page alone.
    resolveFingerprintId({ storage: localStore, compute: () => quiet().then(fingerprintjsVisitorId) }).then(
      ({ id, source }) => setIdentity({ fingerprintId: id, fingerprintIdSource: source }),
    ),
  ]);
  // A marker for tools and tests: both ids are final for this page view.
  document.documentElement.dataset.identity = 'resolved';
}
