/**
 * Meta's install referrer as Meta's documentation describes it (docs/attribution.md#metas-install-referrer):
 * the `install_referrer` column of the Facebook, Instagram or Messenger app's content provider, whose
 * `utm_content.source` holds the campaign data sealed with AES-256-GCM under the app's decryption key
 * (`data`: ciphertext then the 16-byte tag, `nonce`: 12 bytes, both hex). Sealed here with WebCrypto,
 * as Meta does, for `npm run try-install -- --simulate meta`, the tests and the conformance cases.
 */

/** The campaign data Meta seals, as its documentation names the fields. */
export const META_CAMPAIGN = {
  ad_id: '6110357372890',
  adgroup_id: '6110357373890',
  adgroup_name: 'Spring ad',
  campaign_id: '6110357371890',
  campaign_name: 'Spring ad set',
  campaign_group_id: '6110357370890',
  campaign_group_name: 'Spring campaign',
  account_id: '484771145064025',
  ad_objective_name: 'APP_INSTALLS',
} as const;

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
const bytesOf = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

/** `campaign` sealed under `keyHex` (64 hex) with `nonceHex` (24 hex): the provider's `install_referrer` text. */
export async function sealMetaReferrer(
  campaign: Record<string, string>,
  keyHex: string,
  nonceHex = '0123456789abcdef01234567',
  fbAppId = '1234567890',
): Promise<string> {
  const key = await crypto.subtle.importKey('raw', bytesOf(keyHex), 'AES-GCM', false, ['encrypt']);
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: bytesOf(nonceHex) },
    key,
    new TextEncoder().encode(JSON.stringify(campaign)),
  );
  const utmContent = {
    source: { data: hex(new Uint8Array(sealed)), nonce: nonceHex },
    app: Number(fbAppId),
    t: 1764140000,
  };
  return JSON.stringify({
    utm_campaign: 'fb4a',
    utm_content: JSON.stringify(utmContent),
    utm_source: 'apps.facebook.com',
  });
}
