/**
 * AdAttributionKit's signature (docs/store-postbacks.md#adattributionkit): the stanza's `jws-string`
 * is a compact JWS (RFC 7515), ES256, whose header's `kid` names Apple's key (Apple: "Verifying a
 * postback"). Only the JWS is signed: the conversion values and country code beside it are not.
 */
import * as v from 'valibot';
import { firstIssue } from '../lib/json-body.ts';
import { importKey, SKADNETWORK_PREFIX } from './apple-keys.ts';
import { type AakPayload, AakPayloadSchema, type AakStanza, type VerifiedPostback } from './contract.ts';
import { base64Bytes } from './der-signature.ts';
import { type Rejection, reject } from './rejection.ts';

const HeaderSchema = v.object({ alg: v.string(), kid: v.pipe(v.string(), v.maxLength(128)) });

function jsonOf(part: string): unknown {
  const bytes = base64Bytes(part);
  if (!bytes) return undefined;
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return undefined;
  }
}

/** The payload of compact JWS `jws` once its ES256 signature verifies with the key its `kid` names. */
export async function verifyJws(jws: string, keys: ReadonlyMap<string, string>): Promise<AakPayload | Rejection> {
  const parts = jws.split('.');
  const [header64 = '', payload64 = '', signature64 = ''] = parts;
  if (parts.length !== 3 || !signature64)
    return reject('malformed', 'jws-string: must be a compact JWS, header.payload.signature');
  const header = v.safeParse(HeaderSchema, jsonOf(header64));
  if (!header.success) return reject('malformed', 'jws-string: its header must be JSON with alg and kid');
  if (header.output.alg !== 'ES256') return reject('bad-signature', 'jws-string: alg must be ES256');
  const kid = header.output.kid;
  const base64 = kid.startsWith(SKADNETWORK_PREFIX) ? undefined : keys.get(kid);
  const key = base64 === undefined ? null : await importKey(base64);
  if (!key) return reject('unknown-key', "jws-string: kid is not one of Apple's keys");
  const signature = base64Bytes(signature64);
  if (signature?.length !== 64) return reject('bad-signature', 'jws-string: the signature is not ES256');
  const signed = new TextEncoder().encode(`${header64}.${payload64}`);
  if (!(await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature, signed))) {
    return reject('bad-signature', `jws-string: does not verify with Apple's key ${kid.replace(/[^\w/.-]/g, '')}`);
  }
  const payload = v.safeParse(AakPayloadSchema, jsonOf(payload64));
  if (!payload.success) return reject('malformed', `jws-string: payload ${firstIssue(payload.issues)}`);
  return payload.output;
}

/** The counted form of a stanza whose JWS verified, with its unsigned aggregates beside the signed ones. */
export function aakPostbackOf(stanza: AakStanza, payload: AakPayload): VerifiedPostback {
  return {
    kind: 'adattributionkit',
    id: payload['postback-identifier'],
    version: '',
    adNetwork: payload['ad-network-identifier'],
    appId: payload['advertised-item-identifier'],
    source: payload['source-identifier'],
    publisher: payload['publisher-item-identifier'] ?? '',
    conversionValue: stanza['conversion-value'] ?? null,
    coarseValue: stanza['coarse-conversion-value'] ?? null,
    sequenceIndex: payload['postback-sequence-index'],
    countryCode: stanza['country-code'] ?? null,
    reengagement: payload['conversion-type'] === 're-engagement',
    won: payload['did-win'],
  };
}
