/**
 * Query data (docs/campaign-links.md): the decrypted `d` token and the plain parameters beside it
 * (`channel`, `inviter`), each bounded in size, never merged (shared/campaign.ts). These are the only
 * query parameters a page reads: tracking parameters (`utm_*`, `fbclid`, `gclid`, …) and any other one
 * never reach it, so they cannot split kept pages or leak into canonical URLs, links or QR codes.
 */
import * as v from 'valibot';
import type { Campaign } from '../../shared/campaign.ts';
import { decryptToken, encryptToken, MAX_TOKEN_LENGTH } from './token.ts';

export const QUERY_LIMITS = { maxParams: 20, maxKeyLength: 32, maxValueLength: 256 } as const;

const KEY = /^[A-Za-z0-9_.-]+$/;
/** Names an object's prototype answers to: never field names, in a token or beside it. */
const RESERVED = new Set(['__proto__', 'prototype', 'constructor']);
/** Whether the worker takes `key` as a campaign field's name. */
export const isFieldName = (key: string): boolean =>
  key.length <= QUERY_LIMITS.maxKeyLength && KEY.test(key) && !RESERVED.has(key);

/** What a `d` token may carry: the same bounds the worker applies to plain parameters. */
export const PayloadSchema = v.pipe(
  // Checked on the parsed object itself: a record schema would quietly drop a reserved name.
  v.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value)),
  v.check(
    (record) => Object.keys(record).every(isFieldName),
    'field names are letters, digits, _ . - (at most 32), never __proto__, prototype or constructor',
  ),
  v.check((record) => Object.keys(record).length <= QUERY_LIMITS.maxParams, 'too many fields'),
  v.record(v.string(), v.pipe(v.string(), v.maxLength(QUERY_LIMITS.maxValueLength))),
);

export type QueryData = Record<string, string>;

/** The plain query parameters a page reads (docs/campaign-links.md); anything else a link carries goes in its token. */
export const PLAIN_PARAMS = ['channel', 'inviter'] as const;

/** Whether the worker takes a plain query parameter: one of `PLAIN_PARAMS`, with a bounded value. */
export function isAcceptableParam(key: string, value: string): boolean {
  return (PLAIN_PARAMS as readonly string[]).includes(key) && value.length <= QUERY_LIMITS.maxValueLength;
}

/**
 * The query a page is made from (docs/routes.md): `d` and the plain parameters, first value of each,
 * in one order, without what the page would drop anyway (a token too long to read, a value too
 * long). `''` when none is there; else `?` and the parameters, encoded.
 */
export function pageQuery(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  const d = params.get('d');
  if (d && d.length <= MAX_TOKEN_LENGTH) kept.set('d', d);
  for (const name of PLAIN_PARAMS) {
    const value = params.get(name);
    if (value !== null && isAcceptableParam(name, value)) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `?${query}` : '';
}

/** Decrypts and validates a `d` token; no value when anything is wrong (already logged). */
export function readToken(token: string, key: string | undefined): QueryData | undefined {
  if (!key) return undefined;
  const plaintext = decryptToken(token, key);
  if (plaintext === undefined) return undefined;
  try {
    const result = v.safeParse(PayloadSchema, JSON.parse(plaintext));
    if (result.success) return result.output;
  } catch {
    // not JSON: reported below like a schema failure
  }
  console.error('Decryption failed', 'payload is not a valid campaign object');
  return undefined;
}

/** A campaign's data minted into a `d` token, or why it was not: each caller words the reason for its reader. */
export type MintedToken =
  | { ok: true; token: string }
  | { ok: false; refused: 'data'; issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]] }
  | { ok: false; refused: 'key' }
  | { ok: false; refused: 'length'; length: number };

/**
 * Mints the `d` token that carries `data`, encrypted with the 16-byte decode `key`: the one way a
 * campaign link is made, by `npm run link` and by `POST /api/links` alike, so a token minted is one
 * `readToken` reads back to the same data. Data the schema refuses comes first (it is the caller's to
 * fix, key or no key); then no key, no token; and a token too long to be read is never handed out.
 */
export function mintToken(data: QueryData, key: string | undefined): MintedToken {
  const checked = v.safeParse(PayloadSchema, data);
  if (!checked.success) return { ok: false, refused: 'data', issues: checked.issues };
  if (!key) return { ok: false, refused: 'key' };
  const token = encryptToken(JSON.stringify(data), key);
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, refused: 'length', length: token.length };
  return { ok: true, token };
}

/**
 * The visit's campaign from its query (`params`): the `d` token's fields, decrypted with `key`, and the
 * plain parameters beside them (`PLAIN_PARAMS`, first value of each), kept apart (shared/campaign.ts).
 */
export function readCampaign(params: URLSearchParams, key: string | undefined): Campaign {
  const d = params.get('d');
  const signed = d ? readToken(d, key) : undefined;
  const plain: QueryData = {};
  for (const name of PLAIN_PARAMS) {
    const value = params.get(name);
    if (value !== null && isAcceptableParam(name, value)) plain[name] = value;
  }
  // A broken `d` is never handed on: the app would read garbage on its first launch.
  return signed && d ? { signed, plain, token: d } : { signed: {}, plain };
}
