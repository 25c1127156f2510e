/**
 * Resolves both ids in the browser after hydration (docs/identity.md) and puts them, with their
 * sources, into the client store. Loaded with a dynamic import once the page has loaded, so none
 * of this (nor ofetch, nor FingerprintJS) is in the first visit's JavaScript.
 */

import type { Identity } from '../../../shared/identity.ts';
import { http } from '../../app/http-client.ts';
import type { Store } from '../../app/store.tsx';
import { visitorQuiet } from '../visitor-quiet.ts';
import { documentCookies, localStore } from './browser-storage.ts';
import { fingerprintjsVisitorId, resolveFingerprintId } from './fingerprint-id.ts';
import { resolveVisitorId } from './visitor-id.ts';

/** Resolves both ids in parallel, updating the store as each arrives; never rejects. */
export async function startIdentity(store: Store): Promise<void> {
  const { traceOrigin, queryData } = store.get();
  const setIdentity = (patch: Partial<Identity>) => store.update({ identity: { ...store.get().identity, ...patch } });
  await Promise.all([
    resolveVisitorId({ storage: localStore, cookies: documentCookies, http, traceOrigin, queryData }).then(
      ({ id, source }) => setIdentity({ visitorId: id, visitorIdSource: source }),
    ),
    // A stored id is read at once; computing one waits until the visitor leaves the page alone.
    resolveFingerprintId({ storage: localStore, compute: () => visitorQuiet().then(fingerprintjsVisitorId) }).then(
      ({ id, source }) => setIdentity({ fingerprintId: id, fingerprintIdSource: source }),
    ),
  ]);
  // A marker for tools and tests: both ids are final for this page view.
  document.documentElement.dataset.identity = 'resolved';
}
