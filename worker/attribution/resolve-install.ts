/**
 * Answering an install (docs/attribution.md): a retry gets the stored answer; else the carriers the
 * app found, most reliable first, each resolving by its token's signature alone; else the one
 * unclaimed look-alike click on the install's network, or why there is none. A carrier's click is
 * claimed, so it is never handed to a probabilistic match afterwards.
 */
import { readToken } from '../campaign/query-data.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { type ResolvedCarrier, resolveCarrier } from './carrier.ts';
import type { InstallAnswer, InstallInput, MatchMethod, OpenInput } from './contract.ts';
import { bucketFor, ledgerFor } from './ledger.ts';
import { type AttributionContext, networkKeys } from './record-click.ts';
import { installTuple } from './tuples.ts';

const iso = (ms: number | null | undefined) => (typeof ms === 'number' ? new Date(ms).toISOString() : null);

/** A carrier's answer: its click and campaign, certain; `at` is when the tap was, if it was recorded. */
const carrierAnswer = (
  method: MatchMethod,
  carrier: ResolvedCarrier,
  at: number | null | undefined,
): InstallAnswer => ({
  matched: true,
  method,
  confidence: 100,
  data: carrier.data,
  clickId: carrier.clickId,
  clickedAt: iso(at),
});

/** Claims a carrier's click in the bucket it waits in; returns when it was made, if it was recorded. */
async function claimCarried(env: Env, clickId: string): Promise<number | null> {
  const indexed = await ledgerFor(env, clickId).lookupClick(clickId);
  if (!indexed) return null;
  if (indexed.bucket) await bucketFor(env, indexed.bucket).claim(clickId);
  return indexed.at;
}

/** The answer a carrier gives, or null when `text` holds none that verifies. */
async function byCarrier(
  ctx: AttributionContext,
  method: MatchMethod,
  text: string | undefined,
): Promise<InstallAnswer | null> {
  const carrier = text ? resolveCarrier(text, ctx.decodeKey) : null;
  if (!carrier) return null;
  return carrierAnswer(method, carrier, await claimCarried(ctx.env, carrier.clickId));
}

async function decide(ctx: AttributionContext, body: InstallInput, claimant: string): Promise<InstallAnswer> {
  const carriers = body.carriers ?? {};
  const order: [MatchMethod, string | undefined][] = [
    ['apk', carriers.apk],
    ['harmony', carriers.harmonyLink],
    ['referrer', carriers.playReferrer],
    ['clipboard', carriers.clipboard],
  ];
  for (const [method, text] of order) {
    const answer = await byCarrier(ctx, method, text);
    if (answer) return answer;
  }
  if (!ctx.network) return { matched: false, reason: 'none' };
  const keys = await networkKeys(ctx.salt, ctx.network);
  const result = await bucketFor(ctx.env, keys.bucket).match({
    tuple: installTuple(body),
    address: keys.address,
    claimant,
    now: ctx.now,
    windowMs: ctx.windowMs,
  });
  if (result.kind !== 'matched') return { matched: false, reason: result.kind };
  const { click, confidence } = result;
  return {
    matched: true,
    method: 'probabilistic',
    confidence,
    data: (click.token && readToken(click.token, ctx.decodeKey)) || {},
    clickId: click.clickId,
    clickedAt: iso(click.at),
  };
}

/** The ledger key of the install `(app, installId)`. */
const installKey = (salt: string, app: string, installId: string): Promise<string> =>
  keyedHash(salt, `install\n${app}\n${installId}`);

/**
 * The install's answer: the same for every retry of `(app, installId)`; `first` is true for the one
 * call that decided it, so the install is counted once (docs/operators.md).
 */
export async function resolveInstall(
  ctx: AttributionContext,
  body: InstallInput,
): Promise<{ answer: InstallAnswer; first: boolean }> {
  const key = await installKey(ctx.salt, body.app, body.installId);
  const ledger = ledgerFor(ctx.env, key);
  const known = await ledger.answerOf(key);
  if (known) return { answer: known, first: false };
  return ledger.remember(key, await decide(ctx, body, key), ctx.now);
}

/** The answer the install `(app, installId)` got, if it was answered (and not forgotten since). */
export async function installAnswerOf(
  ctx: AttributionContext,
  app: string,
  installId: string,
): Promise<InstallAnswer | null> {
  const key = await installKey(ctx.salt, app, installId);
  return ledgerFor(ctx.env, key).answerOf(key);
}

/**
 * An installed app opened by a link: the link's carrier, read the way a pasted one is (its URL or
 * the bare carrier), so the method is `clipboard`. Counting only: nothing is claimed.
 */
export async function resolveOpen(ctx: AttributionContext, body: OpenInput): Promise<InstallAnswer> {
  const carrier = resolveCarrier(body.carrier, ctx.decodeKey);
  if (!carrier) return { matched: false, reason: 'none' };
  const indexed = await ledgerFor(ctx.env, carrier.clickId).lookupClick(carrier.clickId);
  return carrierAnswer('clipboard', carrier, indexed?.at);
}
