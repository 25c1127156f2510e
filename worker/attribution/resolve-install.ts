/**
 * Answering an install (docs/attribution.md): a retry gets the stored answer; else the carriers the
 * app found, most reliable first, each resolving by its token's signature and its click id's own tag;
 * else the one unclaimed look-alike click on the install's network, or why there is none. A click
 * credits one install: a carrier claims its click in the ledger, so a second install carrying it is
 * answered `claimed`, and the click is never handed to a probabilistic match afterwards.
 */

import { allows } from '../../shared/consent.ts';
import type { CarrierCheck, Explanation } from '../../shared/install-explanation.ts';
import { readToken } from '../campaign/query-data.ts';
import type { InstallAnswer, MatchMethod } from '../facts.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { ATTRIBUTION_BUDGET_MS, messageOf } from '../reliability/budget.ts';
import { checkCarrier, type ResolvedCarrier } from './carrier.ts';
import { isIssuedClickId } from './click-id.ts';
import type { InstallInput, OpenInput } from './contract.ts';
import { type AnswerRecord, bucketFor, type ClickClaim, ledgerFor } from './ledger.ts';
import { weighMeta } from './meta-touch.ts';
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

/**
 * Claims a carrier's click for the install `claimant` in the ledger, then takes it out of the bucket
 * it waits in. `issued`: the worker signed the id, so it credits even if its tap was never recorded.
 */
async function claimCarried(
  env: Env,
  app: string,
  clickId: string,
  claimant: string,
  now: number,
  issued: boolean,
): Promise<ClickClaim> {
  const claim = await ledgerFor(env, app, clickId).claimClick(clickId, claimant, now, !issued);
  if (claim.outcome === 'credited' && claim.click?.bucket) await bucketFor(env, app, claim.click.bucket).claim(clickId);
  return claim;
}

/** What a test device's carrier would get, claiming nothing: its click stays the real installer's. */
async function lookCarried(
  env: Env,
  app: string,
  clickId: string,
  claimant: string,
  issued: boolean,
): Promise<ClickClaim> {
  const ledger = ledgerFor(env, app, clickId);
  const [click, held] = await Promise.all([ledger.lookupClick(clickId), ledger.heldByOther(clickId, claimant)]);
  if (!issued && !click) return { outcome: 'unknown' };
  return held ? { outcome: 'claimed' } : { outcome: 'credited', click };
}

/** Decides a carrier's click: `issued` is whether the worker signed its id (click-id.ts). */
type Claim = (clickId: string, issued: boolean) => Promise<ClickClaim>;

/** A decided answer and why (shared/install-explanation.ts). */
export interface Decided {
  answer: InstallAnswer;
  explanation: Explanation;
}

type CarrierField = keyof NonNullable<InstallInput['carriers']>;

/** The carriers, most reliable first, with the method each answers by. */
const CARRIER_ORDER: readonly [MatchMethod, CarrierField][] = [
  ['apk', 'apk'],
  ['harmony', 'harmonyLink'],
  ['referrer', 'playReferrer'],
  ['appgallery', 'appGallery'],
  ['clipboard', 'clipboard'],
];

/**
 * The first carrier whose token verifies and whose click is this install's to take answers, and its
 * click is claimed; every carrier that arrived is checked, so the explanation says what each was
 * worth. A click id the worker did not issue credits only if its tap was recorded; one another
 * install holds credits nothing, and when that is all the carriers had, the install is `claimed`.
 */
async function byCarriers(
  ctx: AttributionContext,
  body: InstallInput,
  claim: Claim,
): Promise<Decided | CarrierCheck[]> {
  const checks: CarrierCheck[] = [];
  let answer: InstallAnswer | null = null;
  for (const [method, source] of CARRIER_ORDER) {
    const text = body.carriers?.[source];
    if (!text) continue;
    const checked = checkCarrier(text, ctx.decodeKey);
    if (checked.verdict !== 'valid') checks.push({ source, verdict: checked.verdict });
    else if (answer) checks.push({ source, verdict: 'unused' });
    else {
      const { clickId } = checked.carrier;
      const claimed = await claim(clickId, await isIssuedClickId(ctx.salt, clickId));
      if (claimed.outcome === 'credited') {
        answer = carrierAnswer(method, checked.carrier, claimed.click?.at);
        checks.push({ source, verdict: 'used', tapRecorded: claimed.click !== null });
      } else checks.push({ source, verdict: claimed.outcome === 'claimed' ? 'claimed' : 'unissued' });
    }
  }
  if (answer) return { answer, explanation: { carriers: checks, network: null } };
  // A device whose carrier's click credited another install is that install's reinstall or a copy
  // of its carrier: never credited again, not even by a look-alike.
  if (checks.some((check) => check.verdict === 'claimed'))
    return { answer: { matched: false, reason: 'claimed' }, explanation: { carriers: checks, network: null } };
  return checks;
}

async function decide(ctx: AttributionContext, body: InstallInput, claimant: string): Promise<Decided> {
  const claim: Claim =
    body.test === true
      ? (clickId, issued) => lookCarried(ctx.env, ctx.app, clickId, claimant, issued)
      : (clickId, issued) => claimCarried(ctx.env, ctx.app, clickId, claimant, ctx.now, issued);
  // Meta's install referrer is a carrier too, weighed against Lander's by time (meta-touch.ts).
  const carried = await weighMeta(ctx, body, await byCarriers(ctx, body, claim), claim);
  if (!Array.isArray(carried)) return carried;
  // The install's consent stops the look-alike search (docs/privacy.md, "Consent"): carriers only.
  if (!allows(ctx.consent ?? [], 'probabilisticMatch'))
    return {
      answer: { matched: false, reason: 'none' },
      explanation: { carriers: carried, network: { outcome: 'consent' } },
    };
  if (!ctx.network) {
    return {
      answer: { matched: false, reason: 'none' },
      explanation: { carriers: carried, network: { outcome: 'no-network' } },
    };
  }
  const keys = await networkKeys(ctx.salt, ctx.network);
  const result = await bucketFor(ctx.env, ctx.app, keys.bucket).match({
    tuple: installTuple(body),
    address: keys.address,
    claimant,
    now: ctx.now,
    windowMs: ctx.windowMs,
    look: body.test === true,
  });
  const explanation = { carriers: carried, network: result.report };
  if (result.kind !== 'matched') return { answer: { matched: false, reason: result.kind }, explanation };
  const { click, confidence } = result;
  // The bucket keeps look-alikes apart; the ledger keeps a carrier that comes later from crediting
  // the same click twice. A test device claims nothing.
  if (body.test !== true) {
    const claim = await ledgerFor(ctx.env, ctx.app, click.clickId).claimClick(click.clickId, claimant, ctx.now, false);
    if (claim.outcome !== 'credited') return { answer: { matched: false, reason: 'claimed' }, explanation };
  }
  const answer: InstallAnswer = {
    matched: true,
    method: 'probabilistic',
    confidence,
    data: (click.token && readToken(click.token, ctx.decodeKey)) || {},
    clickId: click.clickId,
    clickedAt: iso(click.at),
  };
  return { answer, explanation };
}

/** The ledger key of the install `(app, installId)`: a keyed hash, also its id in the fraud tables (docs/fraud.md). */
export const installKey = (salt: string, app: string, installId: string): Promise<string> =>
  keyedHash(salt, `install\n${app}\n${installId}`);

/** A resolved install: `first` is true for the one call that decided it; `test` is the deciding call's flag. */
export interface ResolvedInstall extends Decided {
  first: boolean;
  test: boolean;
  /** The install's ledger key (`installKey`). */
  key: string;
}

/**
 * The install's answer: the same for every retry of `(app, installId)`; `first` is true for the one
 * call that decided it, so the install is counted once (docs/operators.md). A test device's install
 * is matched like any other and remembered as a test, so neither it nor its events are counted.
 */
export async function resolveInstall(ctx: AttributionContext, body: InstallInput): Promise<ResolvedInstall> {
  const key = await installKey(ctx.salt, body.app, body.installId);
  const ledger = ledgerFor(ctx.env, ctx.app, key);
  const known = await ledger.recordOf(key);
  if (known) return { answer: known.answer, explanation: known.explanation, first: false, test: known.test, key };
  const test = body.test === true;
  const decided = await decide(ctx, body, key);
  const { answer, first } = await ledger.remember(key, decided.answer, ctx.now, { ...decided, test });
  return { answer, explanation: decided.explanation, first, test, key };
}

/**
 * The answer when attribution's storage did not answer in time (docs/reliability.md): the first
 * carrier that verifies and whose click id the worker issued, from the two signatures alone (its
 * click claimed later, by the catch-up); else `unavailable`, since neither a tap nor a look-alike
 * could be sought.
 */
export async function answerWithoutStorage(ctx: AttributionContext, body: InstallInput): Promise<Decided> {
  const claim: Claim = async (_clickId, issued) =>
    issued ? { outcome: 'credited', click: null } : { outcome: 'unknown' };
  const carried = await weighMeta(ctx, body, await byCarriers(ctx, body, claim), claim);
  if (!Array.isArray(carried)) return carried;
  return { answer: { matched: false, reason: 'unavailable' }, explanation: { carriers: carried, network: null } };
}

/** What the ledger keeps of the install `(app, installId)`, if it was answered (and not forgotten since). */
export async function installRecordOf(
  ctx: Pick<AttributionContext, 'env' | 'app' | 'salt'>,
  app: string,
  installId: string,
): Promise<AnswerRecord | null> {
  const key = await installKey(ctx.salt, app, installId);
  return ledgerFor(ctx.env, ctx.app, key).recordOf(key);
}

/**
 * An installed app opened by a link: the link's carrier, read the way a pasted one is (its URL or
 * the bare carrier), so the method is `clipboard`. Counting only: nothing is claimed, but a click id
 * the worker neither issued nor saw tapped answers nothing, as for an install.
 */
export async function resolveOpen(ctx: AttributionContext, body: OpenInput): Promise<Decided> {
  const checked = checkCarrier(body.carrier, ctx.decodeKey);
  if (checked.verdict !== 'valid') {
    const explanation: Explanation = { carriers: [{ source: 'link', verdict: checked.verdict }], network: null };
    return { answer: { matched: false, reason: 'none' }, explanation };
  }
  const { carrier } = checked;
  // When the tap was is a detail: an open never waits for it past the budget (docs/reliability.md).
  const indexed = await withinBudget(
    ledgerFor(ctx.env, ctx.app, carrier.clickId).lookupClick(carrier.clickId),
    ATTRIBUTION_BUDGET_MS,
  ).catch((error: unknown) => {
    console.error('Open answered without its click', messageOf(error));
    return null;
  });
  if (indexed === null && !(await isIssuedClickId(ctx.salt, carrier.clickId))) {
    const explanation: Explanation = { carriers: [{ source: 'link', verdict: 'unissued' }], network: null };
    return { answer: { matched: false, reason: 'none' }, explanation };
  }
  return {
    answer: carrierAnswer('clipboard', carrier, indexed?.at),
    explanation: { carriers: [{ source: 'link', verdict: 'used', tapRecorded: indexed !== null }], network: null },
  };
}
