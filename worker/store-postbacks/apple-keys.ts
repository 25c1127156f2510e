/**
 * The public keys postbacks are verified with (docs/store-postbacks.md#keys), as Apple publishes them:
 * base64 DER (SubjectPublicKeyInfo) NIST P-256 keys. Bundled, because the worker cannot fetch them at
 * request time and Apple publishes them in its documentation, not as a fetchable key set.
 *
 * - SKAdNetwork 2.1 and later: https://developer.apple.com/documentation/storekit/verifying-an-install-validation-postback
 * - AdAttributionKit, by the JWS header's `kid`:
 *   https://developer.apple.com/documentation/adattributionkit/verifying-a-postback
 *
 * `STORE_POSTBACK_KEYS` (worker/settings.ts) lays keys over these, by id: in production only the ids
 * Apple uses for production (an override when Apple rotates a key); in development any id, so a test
 * or a developer's own signer can add a key. SKAdNetwork postbacks carry no key id: every key whose
 * id starts with `skadnetwork/` is tried.
 */

/** Apple's P-256 key for SKAdNetwork 2.1+; the same key signs production AdAttributionKit postbacks. */
const APPLE_P256 =
  'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWdp8GPcGqmhgzEFj9Z2nSpQVddayaPe4FMzqM9wib1+aHaaIzoHoLN9zW4K8y4SPykE3YVK3sVqW6Af0lfx3gg==';

/** The key ids of production postbacks: the only ones production accepts or lets be overridden. */
export const PRODUCTION_KEYS: Readonly<Record<string, string>> = {
  'skadnetwork/p256': APPLE_P256,
  'apple-cas-identifier/0': APPLE_P256,
};

/** AdAttributionKit's development keys: end-to-end flows (`/0`) and the device's developer settings (`/1`). */
export const DEVELOPMENT_KEYS: Readonly<Record<string, string>> = {
  'apple-development-identifier/0':
    'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAELeEDzpJEP+/qRSE5hJVC1p1J0ssUnQGMzBBbvnACBok8OVGGLgxL0myrKiy6lvRtSlLRsWit87i+vftD8AEqeQ==',
  'apple-development-identifier/1':
    'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE8YzdO7eM97s/IJ25kdW5CZ3A14USE5IJ5Ha/vhWaxI6UBI1ZxCEvjrKxVluVGe6qWwF1BDFq+QHqKfH5u+wxHQ==',
};

/** The id prefix of keys SKAdNetwork signatures are tried with. */
export const SKADNETWORK_PREFIX = 'skadnetwork/';

/**
 * The key set of an environment: Apple's production keys, in development also Apple's development
 * keys, then the configured keys (`extra`) — in production only those replacing a production id.
 */
export function keySetOf(
  env: 'development' | 'production',
  extra: Readonly<Record<string, string>>,
): Map<string, string> {
  const keys = new Map(Object.entries(PRODUCTION_KEYS));
  if (env === 'development') for (const [id, key] of Object.entries(DEVELOPMENT_KEYS)) keys.set(id, key);
  for (const [id, key] of Object.entries(extra)) {
    if (env === 'production' && !(id in PRODUCTION_KEYS)) continue;
    keys.set(id, key);
  }
  return keys;
}

// Imported keys by their base64 text: a handful per isolate, imported once each.
const imported = new Map<string, Promise<CryptoKey | null>>();

/** The WebCrypto key of a base64 DER P-256 public key; null when it is not one. */
export function importKey(base64: string): Promise<CryptoKey | null> {
  let key = imported.get(base64);
  if (!key) {
    key = importSpki(base64);
    imported.set(base64, key);
  }
  return key;
}

async function importSpki(base64: string): Promise<CryptoKey | null> {
  try {
    const der = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    return await crypto.subtle.importKey('spki', der, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  } catch {
    return null;
  }
}
