/**
 * Mints a campaign link (docs/campaign-links.md) with the worker's own `mintToken`, the one `POST
 * /api/links` uses, so a link this accepts is one the worker reads back to the same data; plain
 * parameters are checked against the rules the worker applies to them, and every refusal is worded
 * for the command line.
 */

import type * as v from 'valibot';
import { appBase, DEFAULT_APP } from '../../shared/apps.ts';
import {
  isAcceptableParam,
  isFieldName,
  mintToken,
  PLAIN_PARAMS,
  QUERY_LIMITS,
} from '../../worker/campaign/query-data.ts';
import { MAX_TOKEN_LENGTH } from '../../worker/campaign/token.ts';

export interface LinkRequest {
  /** Signed fields, carried in the `d` token. */
  payload: Record<string, string>;
  /** Plain query parameters, added beside `d`. */
  plain: [name: string, value: string][];
  /** The page's origin, e.g. `https://get.example.com`. */
  base: string;
  /** The 16-byte decode key. */
  key: string;
  /** The app whose page it is (docs/routes.md#apps): another than the default's is under `/@<app>`. */
  app?: string;
}

export type MintResult = { ok: true; url: string } | { ok: false; reason: string };

function problemOf(issue: v.BaseIssue<unknown>): string {
  const item = issue.path?.at(-1);
  if (!item) return issue.message;
  const what = 'origin' in item && item.origin === 'key' ? 'key' : 'value of';
  return `${what} ${JSON.stringify(String(item.key))}: ${issue.message}`;
}

export function mintLink({ payload, plain, base, key, app = DEFAULT_APP }: LinkRequest): MintResult {
  if (Object.keys(payload).length === 0) return { ok: false, reason: 'give at least --channel, --inviter or --param' };
  if (new TextEncoder().encode(key).length !== 16) return { ok: false, reason: 'DECODE_KEY must be exactly 16 bytes' };
  const badName = Object.keys(payload).find((name) => !isFieldName(name));
  if (badName !== undefined) {
    return {
      ok: false,
      reason: `the worker would refuse the field name ${JSON.stringify(badName)}: letters, digits, _ . - (at most 32), not __proto__, prototype or constructor`,
    };
  }
  const minted = mintToken(payload, key);
  if (!minted.ok && minted.refused === 'data') {
    return { ok: false, reason: `the worker would refuse this token: ${minted.issues.map(problemOf).join('; ')}` };
  }
  let url: URL;
  try {
    url = new URL(`${appBase(app)}/landing`, base);
  } catch {
    return { ok: false, reason: `invalid --base ${JSON.stringify(base)}` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `--base must be an http(s) origin, got ${JSON.stringify(base)}` };
  }
  if (!minted.ok) {
    const reason =
      minted.refused === 'key'
        ? 'DECODE_KEY must be exactly 16 bytes'
        : `the token would be ${minted.length} characters; the worker reads at most ${MAX_TOKEN_LENGTH}`;
    return { ok: false, reason };
  }
  url.searchParams.set('d', minted.token);
  for (const [name, value] of plain) {
    if (!isAcceptableParam(name, value)) {
      return {
        ok: false,
        reason: `the worker ignores the plain parameter ${JSON.stringify(name)}: it reads ${PLAIN_PARAMS.join(' and ')} (at most ${QUERY_LIMITS.maxValueLength} characters); put other fields in the token`,
      };
    }
    if (url.searchParams.has(name)) {
      return { ok: false, reason: `the plain parameter ${JSON.stringify(name)} is given twice` };
    }
    if (Object.hasOwn(payload, name)) {
      return {
        ok: false,
        reason: `the token names ${JSON.stringify(name)}: the page shows the token's, never the plain parameter`,
      };
    }
    url.searchParams.set(name, value);
  }
  return { ok: true, url: url.href };
}
