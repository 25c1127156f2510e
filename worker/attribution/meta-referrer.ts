/**
 * Meta's install referrer (docs/attribution.md#metas-install-referrer): what the Facebook, Instagram
 * or Messenger app's content provider handed the app, opened with the app's decryption key from Meta
 * (AES-256-GCM, WebCrypto). A referrer that does not open under the key — tampered, or sealed for
 * another app — is no touch at all; one older than Meta's window is expired. The touch's id is a keyed
 * hash of its sealed data, so one referrer credits at most one install, as a Lander click does.
 */
import { toBase64Url } from '../../shared/base64url.ts';
import type { CarrierVerdict } from '../../shared/install-explanation.ts';

/** What the app read of the provider (`metaReferrer` of `POST /api/a/install`). */
export interface MetaReferrerInput {
  /** The provider's `install_referrer` column: JSON (or a query string) with `utm_content.source`. */
  installReferrer: string;
  /** The provider's `actual_timestamp`: when the ad was clicked or viewed, seconds since 1970. */
  actualTimestamp?: number | undefined;
  /** The provider's `is_ct`: a click-through (true) or a view-through (false). */
  isCt?: boolean | undefined;
}

/** Meta's default attribution setting: a click counts 7 days, a view 1 day. */
export const META_CLICK_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
export const META_VIEW_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The fields of the opened campaign data an answer carries, as Meta names them. */
export const META_FIELDS = [
  'ad_id',
  'adgroup_id',
  'adgroup_name',
  'campaign_id',
  'campaign_name',
  'campaign_group_id',
  'campaign_group_name',
  'account_id',
  'ad_objective_name',
] as const;

/** A Meta touch that opened and is within its window. */
export interface MetaTouch {
  /** A keyed hash of the sealed data: 22 characters, as a click id is spelled. */
  touchId: string;
  /** When the ad was clicked or viewed (ms). */
  at: number;
  data: Record<string, string>;
}

export type MetaCheck =
  | { verdict: 'valid'; touch: MetaTouch }
  | { verdict: Exclude<CarrierVerdict, 'used' | 'unused'> };

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const hexBytes = (text: string): Uint8Array<ArrayBuffer> | undefined =>
  HEX.test(text) ? Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16)) : undefined;

/** A JSON object, or a JSON object written as a string (Meta writes `utm_content` both ways). */
function objectOf(value: unknown): Record<string, unknown> | undefined {
  let read = value;
  if (typeof read === 'string') {
    try {
      read = JSON.parse(read);
    } catch {
      return undefined;
    }
  }
  return read && typeof read === 'object' && !Array.isArray(read) ? (read as Record<string, unknown>) : undefined;
}

/** `utm_content.source`'s `data` and `nonce`, from the provider's JSON or the Play referrer's query form. */
export function sealedOf(installReferrer: string): { data: string; nonce: string } | undefined {
  const text = installReferrer.trim();
  let content = objectOf(objectOf(text)?.utm_content);
  if (!content && !text.startsWith('{')) content = objectOf(new URLSearchParams(text).get('utm_content') ?? undefined);
  const source = objectOf(content?.source);
  const { data, nonce } = source ?? {};
  return typeof data === 'string' && typeof nonce === 'string' ? { data, nonce } : undefined;
}

/** The campaign data opened with `keyHex`, or undefined when it does not open (GCM's tag refuses it). */
export async function openSealed(sealed: { data: string; nonce: string }, keyHex: string): Promise<unknown> {
  const key = hexBytes(keyHex);
  const data = hexBytes(sealed.data);
  const iv = hexBytes(sealed.nonce);
  if (key?.length !== 32 || !data || data.length <= 16 || !iv) return undefined;
  try {
    const cryptoKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['decrypt']);
    // Meta's data is the ciphertext followed by GCM's 16-byte tag: WebCrypto's own layout.
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, cryptoKey, data);
    return JSON.parse(new TextDecoder().decode(plain));
  } catch {
    return undefined;
  }
}

/** Meta's fields of the opened data, each as text; `is_ct` from the provider. */
function fieldsOf(opened: Record<string, unknown>, isCt: boolean | undefined): Record<string, string> {
  const data: Record<string, string> = {};
  for (const field of META_FIELDS) {
    const value = opened[field];
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) data[field] = String(value);
  }
  if (isCt !== undefined) data.is_ct = isCt ? '1' : '0';
  return data;
}

/**
 * Checks the referrer: `no-key` when the app has no key from Meta, `not-a-carrier` without sealed
 * data, `bad-signature` when it does not open under the key, `expired` past Meta's window (a touch
 * whose time is unknown is never within it), else the touch.
 */
export async function checkMetaReferrer(
  input: MetaReferrerInput,
  keyHex: string | undefined,
  salt: string,
  now: number,
): Promise<MetaCheck> {
  if (!keyHex) return { verdict: 'no-key' };
  const sealed = sealedOf(input.installReferrer);
  if (!sealed) return { verdict: 'not-a-carrier' };
  const opened = objectOf(await openSealed(sealed, keyHex));
  if (!opened) return { verdict: 'bad-signature' };
  const at = (input.actualTimestamp ?? 0) * 1000;
  const window = input.isCt === false ? META_VIEW_WINDOW_MS : META_CLICK_WINDOW_MS;
  if (at <= 0 || now - at > window) return { verdict: 'expired' };
  const touchId = await touchIdOf(salt, sealed.data);
  return { verdict: 'valid', touch: { touchId, at, data: fieldsOf(opened, input.isCt) } };
}

/** The touch's id: the first 16 bytes of an HMAC of its sealed data, spelled as a click id. */
async function touchIdOf(salt: string, data: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(salt),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`meta\n${data.toLowerCase()}`));
  return toBase64Url(new Uint8Array(mac).slice(0, 16));
}

/**
 * Which touch is the last (docs/attribution.md, "Meta and a Lander tap"): the Lander tap when its time
 * is known and later than Meta's; a touch whose time is unknown is never the later one.
 */
export const landerTapIsLater = (landerAt: number | null, metaAt: number): boolean =>
  landerAt !== null && landerAt > metaAt;
