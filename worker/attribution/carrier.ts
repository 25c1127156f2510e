/**
 * Reading a carrier (shared/attribution.ts) back on the worker: from the bare string, or from
 * anything that contains `/i/<carrier>` (the app may send the whole clipboard). The campaign data
 * comes from the token's own signature, with no storage lookup: a carrier resolves from anywhere,
 * forever. A carrier whose token does not verify is no carrier at all.
 */
import { CARRIER_PATH } from '../../shared/attribution.ts';
import { fromBase64Url } from '../../shared/base64url.ts';
import type { QueryData } from '../campaign/query-data.ts';
import { readToken } from '../campaign/query-data.ts';
import { MAX_TOKEN_LENGTH } from '../campaign/token.ts';

export interface ResolvedCarrier {
  clickId: string;
  /** The token's fields; `{}` when the click had no campaign. */
  data: QueryData;
  /** The token itself, when there was one. */
  token: string | null;
}

const CARRIER = /^([A-Za-z0-9_-]{22})(?:\.([A-Za-z0-9_-]{1,2048}))?$/;
const IN_TEXT = new RegExp(`${CARRIER_PATH.replace(/\//g, '\\/')}([A-Za-z0-9_-]{22}(?:\\.[A-Za-z0-9_-]+)?)`);

/** A click id spelled the one strict way (16 bytes of URL-safe base64, no spare bits set). */
export function isClickId(text: string): boolean {
  return text.length === 22 && fromBase64Url(text)?.length === 16;
}

/** The carrier `carrierIn` finds, as CARRIER's match: the click id in [1], the token in [2]. */
function carrierMatch(text: string): RegExpExecArray | null {
  const trimmed = text.trim();
  return CARRIER.exec(trimmed) ?? CARRIER.exec(IN_TEXT.exec(trimmed)?.[1] ?? '');
}

/** The carrier in `text`: the whole of it, or the part after `/i/` in a URL anywhere inside it. */
export function carrierIn(text: string): string | null {
  return carrierMatch(text)?.[0] ?? null;
}

/** The campaign token a carrier carries, unverified (the page reads it like a `d` parameter). */
export function carrierToken(text: string): string | null {
  return carrierMatch(text)?.[2] ?? null;
}

/** What `text` is worth as a carrier: valid with its click and campaign, or why not (shared/install-explanation.ts). */
export type CarrierCheckResult =
  | { verdict: 'valid'; carrier: ResolvedCarrier }
  | { verdict: 'not-a-carrier' | 'bad-click-id' | 'bad-signature' };

/** Reads the carrier in `text` and verifies its token with `key`, saying why when it is no carrier. */
export function checkCarrier(text: string, key: string | undefined): CarrierCheckResult {
  const match = carrierMatch(text);
  const clickId = match?.[1];
  if (!match || !clickId) return { verdict: 'not-a-carrier' };
  if (!isClickId(clickId)) return { verdict: 'bad-click-id' };
  const token = match[2];
  if (!token) return { verdict: 'valid', carrier: { clickId, data: {}, token: null } };
  const data = token.length > MAX_TOKEN_LENGTH ? undefined : readToken(token, key);
  return data ? { verdict: 'valid', carrier: { clickId, data, token } } : { verdict: 'bad-signature' };
}

/** The click and campaign a carrier names; null when it is malformed or its token does not verify. */
export function resolveCarrier(text: string, key: string | undefined): ResolvedCarrier | null {
  const checked = checkCarrier(text, key);
  return checked.verdict === 'valid' ? checked.carrier : null;
}
