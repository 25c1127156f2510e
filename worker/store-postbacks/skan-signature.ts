/**
 * SKAdNetwork's signature (docs/store-postbacks.md#skadnetwork): Apple signs, with ECDSA P-256 and
 * SHA-256, the UTF-8 string of some of the postback's values in a version's order, joined by U+2063
 * (Apple: "Verifying an install-validation postback", "Combining parameters for SKAdNetwork 3
 * postbacks", "… for previous SKAdNetwork postback versions"). Conversion values are never signed.
 */
import { importKey, SKADNETWORK_PREFIX } from './apple-keys.ts';
import type { SkanPostback, VerifiedPostback } from './contract.ts';
import { base64Bytes, rawSignatureOf } from './der-signature.ts';
import { type Rejection, reject } from './rejection.ts';

/** Apple's separator of the signed values: INVISIBLE SEPARATOR. */
export const SEPARATOR = '\u2063';

/** The versions whose signatures this verifies: 2.1 and later, signed with Apple's P-256 key. */
export const VERIFIED_VERSIONS = ['2.1', '2.2', '3.0', '4.0'] as const;

type Field = keyof SkanPostback;

// Each version's signed fields in order; `?` marks a field signed only when the postback has it.
// Each version up to 3.0 signs the fields of the one before and one more; 4.0 names the campaign
// a source identifier and adds the source domain and the postback's sequence index.
const V2_1 = ['version', 'ad-network-id', 'campaign-id', 'app-id', 'transaction-id', 'redownload', 'source-app-id?'];
const V2_2 = [...V2_1, 'fidelity-type'];
const V3_0 = [...V2_2, 'did-win'];
const ORDERS: Record<(typeof VERIFIED_VERSIONS)[number], readonly string[]> = {
  '2.1': V2_1,
  '2.2': V2_2,
  '3.0': V3_0,
  '4.0': [
    'version',
    'ad-network-id',
    'source-identifier',
    'app-id',
    'transaction-id',
    'redownload',
    'source-app-id?',
    'source-domain?',
    'fidelity-type',
    'did-win',
    'postback-sequence-index',
  ],
};

const isVerified = (version: string): version is (typeof VERIFIED_VERSIONS)[number] =>
  (VERIFIED_VERSIONS as readonly string[]).includes(version);

/** The string Apple signed for `postback`, or why it cannot be rebuilt. */
export function signedString(postback: SkanPostback): string | Rejection {
  const version = postback.version ?? '1.0';
  if (version === '1.0' || version === '2.0') {
    return reject(
      'unsupported-version',
      `version: ${version} postbacks are signed with Apple's P-192 key, which is not verified here`,
    );
  }
  if (!isVerified(version))
    return reject('unsupported-version', `version: must be one of ${VERIFIED_VERSIONS.join(', ')}`);
  const values: string[] = [];
  for (const entry of ORDERS[version]) {
    const optional = entry.endsWith('?');
    const field = (optional ? entry.slice(0, -1) : entry) as Field;
    const value = postback[field];
    if (value === undefined) {
      if (optional) continue;
      return reject('malformed', `${field}: required in a version ${version} postback`);
    }
    values.push(String(value));
  }
  return values.join(SEPARATOR);
}

/** Whether `signature` (base64 DER) verifies over `text` with one of the `skadnetwork/` keys. */
async function verifies(keys: ReadonlyMap<string, string>, signature: Uint8Array, text: string): Promise<boolean> {
  const data = new TextEncoder().encode(text);
  for (const [id, base64] of keys) {
    if (!id.startsWith(SKADNETWORK_PREFIX)) continue;
    const key = await importKey(base64);
    if (key && (await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature, data))) return true;
  }
  return false;
}

/** The counted form of `postback` once its signature verifies with `keys`, or why it is refused. */
export async function verifySkan(
  postback: SkanPostback,
  keys: ReadonlyMap<string, string>,
): Promise<VerifiedPostback | Rejection> {
  const text = signedString(postback);
  if (typeof text !== 'string') return text;
  const given = postback['attribution-signature'];
  if (!given) return reject('missing-signature', 'attribution-signature: missing');
  const der = base64Bytes(given);
  const signature = der && rawSignatureOf(der);
  if (!signature) return reject('bad-signature', 'attribution-signature: not a base64 DER ECDSA signature');
  if (!(await verifies(keys, signature, text))) {
    return reject('bad-signature', "attribution-signature: does not verify with Apple's key");
  }
  return {
    kind: 'skadnetwork',
    id: postback['transaction-id'],
    version: postback.version ?? '',
    adNetwork: postback['ad-network-id'],
    appId: postback['app-id'],
    source: postback['source-identifier'] ?? postback['campaign-id'] ?? '',
    publisher: postback['source-app-id'] ?? postback['source-domain'] ?? '',
    conversionValue: postback['conversion-value'] ?? null,
    coarseValue: postback['coarse-conversion-value'] ?? null,
    sequenceIndex: postback['postback-sequence-index'] ?? 0,
    countryCode: null,
    reengagement: postback.redownload ?? false,
    won: postback['did-win'] ?? true,
  };
}
