/**
 * Query data (docs/config.md): plain parameters (channel, inviter, …) merged with the decrypted `d`
 * token, bounded in count and size. Values from `d` win: they were signed by the operator.
 */
import * as v from 'valibot';
import { decryptToken } from './token.ts';

export const QUERY_LIMITS = { maxParams: 20, maxKeyLength: 32, maxValueLength: 256 } as const;

const KEY = /^[A-Za-z0-9_.-]+$/;

/** What a `d` token may carry: the same bounds the worker applies to plain parameters. */
export const PayloadSchema = v.pipe(
  v.record(
    v.pipe(v.string(), v.maxLength(QUERY_LIMITS.maxKeyLength), v.regex(KEY)),
    v.pipe(v.string(), v.maxLength(QUERY_LIMITS.maxValueLength)),
  ),
  v.check((record) => Object.keys(record).length <= QUERY_LIMITS.maxParams, 'too many fields'),
);

export type QueryData = Record<string, string>;

/** Whether the worker takes a plain query parameter: not `d`, a bounded key of safe characters, a bounded value. */
export function isAcceptableParam(key: string, value: string): boolean {
  return (
    key !== 'd' &&
    key.length <= QUERY_LIMITS.maxKeyLength &&
    KEY.test(key) &&
    value.length <= QUERY_LIMITS.maxValueLength
  );
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

/** The visit's campaign: its query data, and the token the landing button copies (docs/screens.md). */
export interface Campaign {
  data: QueryData;
  /** The `d` value when it decrypted, else the query data as a query string; absent when empty. */
  token?: string;
}

/** The visit's query data from `url`, with `d` decrypted by `key`; at most `maxParams` entries. */
export function readCampaign(url: URL, key: string | undefined): Campaign {
  const d = url.searchParams.get('d');
  const decoded = d ? readToken(d, key) : undefined;
  const data: QueryData = { ...decoded };
  let count = Object.keys(data).length;
  for (const [name, value] of url.searchParams) {
    if (count >= QUERY_LIMITS.maxParams) break;
    if (!isAcceptableParam(name, value) || name in data) continue;
    data[name] = value;
    count += 1;
  }
  // A broken `d` is never handed on: the app would read garbage on its first launch.
  const token = d && decoded ? d : new URLSearchParams(data).toString();
  return token ? { data, token } : { data };
}

/** The visit's query data from `url`, with `d` decrypted by `key`; at most `maxParams` entries. */
export function readQueryData(url: URL, key: string | undefined): QueryData {
  return readCampaign(url, key).data;
}
