/**
 * Query data (docs/campaign-links.md): the decrypted `d` token and the plain parameters (channel,
 * inviter, …) beside it, each bounded in count and size, never merged (shared/campaign.ts).
 */
import * as v from 'valibot';
import type { Campaign } from '../../shared/campaign.ts';
import { decryptToken } from './token.ts';

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

/** Whether the worker takes a plain query parameter: not `d`, a bounded key of safe characters, a bounded value. */
export function isAcceptableParam(key: string, value: string): boolean {
  return key !== 'd' && isFieldName(key) && value.length <= QUERY_LIMITS.maxValueLength;
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

/**
 * The visit's campaign from its query (`params`): the `d` token's fields, decrypted with `key`, and the
 * plain parameters beside them, kept apart (shared/campaign.ts); at most `maxParams` of each.
 */
export function readCampaign(params: URLSearchParams, key: string | undefined): Campaign {
  const d = params.get('d');
  const signed = d ? readToken(d, key) : undefined;
  const plain: QueryData = {};
  let count = 0;
  for (const [name, value] of params) {
    if (count >= QUERY_LIMITS.maxParams) break;
    if (!isAcceptableParam(name, value) || Object.hasOwn(plain, name)) continue;
    plain[name] = value;
    count += 1;
  }
  // A broken `d` is never handed on: the app would read garbage on its first launch.
  return signed && d ? { signed, plain, token: d } : { signed: {}, plain };
}
