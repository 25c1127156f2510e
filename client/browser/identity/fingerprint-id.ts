/**
 * The fingerprint id (docs/identity.md): computed once by FingerprintJS when `fingerprint_id` is absent
 * from localStorage, then reused. On failure: a warning and a random UUID, stored like a real one so
 * the id stays stable for this browser instead of changing on every visit.
 */
import { FINGERPRINT_ID_KEY, type FingerprintIdSource, isFingerprintId, randomUuid } from '../../../shared/identity.ts';
import { describeError, type KeyValueStore, type Resolved, type Warn } from './ports.ts';

export interface FingerprintIdOptions {
  storage: KeyValueStore;
  /** Computes the fingerprint; FingerprintJS by default. */
  compute?: () => Promise<string>;
  warn?: Warn;
}

/** Resolves, stores and returns the fingerprint id with its source. Never rejects. */
export async function resolveFingerprintId({
  storage,
  compute = fingerprintjsVisitorId,
  warn = console.warn,
}: FingerprintIdOptions): Promise<Resolved<FingerprintIdSource>> {
  const stored = storage.get(FINGERPRINT_ID_KEY);
  if (isFingerprintId(stored)) return { id: stored, source: 'stored' };
  let resolved: Resolved<FingerprintIdSource>;
  try {
    const id = await compute();
    if (!isFingerprintId(id)) throw new Error('FingerprintJS returned no usable id');
    resolved = { id, source: 'fingerprintjs' };
  } catch (error) {
    warn(`Fingerprint id: ${describeError(error)}; using a random id`);
    resolved = { id: randomUuid(), source: 'temporary' };
  }
  storage.set(FINGERPRINT_ID_KEY, resolved.id);
  return resolved;
}

export const FINGERPRINT_MARK = 'lander:fingerprint-start';
export const FINGERPRINT_MEASURE = 'lander:fingerprint';

/**
 * FingerprintJS's visitor id. The library is its own chunk, fetched only here, after the page is
 * interactive, so it never weighs on the first visit's JavaScript. `monitoring: false` stops the
 * library's own statistics request to its vendor.
 */
export async function fingerprintjsVisitorId(): Promise<string> {
  // User Timing marks: DevTools and `npm run bench` see when and how long the probes hold the page.
  performance.mark(FINGERPRINT_MARK);
  try {
    const { load } = await import('@fingerprintjs/fingerprintjs');
    const agent = await load({ monitoring: false });
    const { visitorId } = await agent.get();
    return visitorId;
  } finally {
    // Only a measurement: a browser that refuses it must not cost the visitor the fingerprint.
    try {
      performance.measure(FINGERPRINT_MEASURE, FINGERPRINT_MARK);
    } catch {}
  }
}
