/**
 * Meta's touch beside Lander's carriers (docs/attribution.md#metas-install-referrer): when the app
 * sent Meta's install referrer and it opens under the app's key within Meta's window, the install is
 * Meta's unless a Lander carrier's tap is known to be later. Meta's referrer is a carrier: with it,
 * no look-alike is sought. One referrer credits one install, claimed in the ledger by its touch id.
 */
import type { CarrierCheck, Explanation } from '../../shared/install-explanation.ts';
import type { InstallAnswer } from '../facts.ts';
import { settingsOf } from '../settings.ts';
import type { ClickClaim } from './ledger.ts';
import { checkMetaReferrer, landerTapIsLater, type MetaReferrerInput, type MetaTouch } from './meta-referrer.ts';
import type { AttributionContext } from './record-click.ts';

/** A decided answer and why: resolve-install.ts's `Decided`, named here so neither file imports the other. */
type Decided = { answer: InstallAnswer; explanation: Explanation };

/** Decides a touch's id as a carrier's click: `issued` is always true for Meta's (its seal vouches). */
type Claim = (clickId: string, issued: boolean) => Promise<ClickClaim>;

const metaAnswer = (touch: MetaTouch): InstallAnswer => ({
  matched: true,
  method: 'meta',
  confidence: 100,
  data: touch.data,
  clickId: touch.touchId,
  clickedAt: new Date(touch.at).toISOString(),
});

/** When the answered Lander tap was, ms; null when unknown (its tap never recorded) or unanswered. */
const landerAt = (answer: InstallAnswer): number | null =>
  answer.matched && answer.clickedAt ? Date.parse(answer.clickedAt) : null;

/**
 * Weighs Meta's referrer against what the Lander carriers decided (`carried`: an answer, or the checks
 * when none answered), in the same shape: the later touch answers; the other is `earlier`.
 */
export async function weighMeta(
  ctx: AttributionContext,
  body: { app: string; metaReferrer?: MetaReferrerInput | undefined },
  carried: Decided | CarrierCheck[],
  claim: Claim,
): Promise<Decided | CarrierCheck[]> {
  if (!body.metaReferrer) return carried;
  const key = settingsOf(ctx.env).metaReferrerKeys[body.app];
  const checked = await checkMetaReferrer(body.metaReferrer, key, ctx.salt, ctx.now);
  const checks = Array.isArray(carried) ? carried : carried.explanation.carriers;
  const decided = (answer: InstallAnswer, metaCheck: CarrierCheck, landerChecks = checks): Decided => ({
    answer,
    explanation: { carriers: [...landerChecks, metaCheck], network: null },
  });
  if (checked.verdict !== 'valid') {
    const check: CarrierCheck = { source: 'metaReferrer', verdict: checked.verdict };
    return Array.isArray(carried) ? [...carried, check] : decided(carried.answer, check);
  }
  const { touch } = checked;
  if (!Array.isArray(carried) && landerTapIsLater(landerAt(carried.answer), touch.at))
    return decided(carried.answer, { source: 'metaReferrer', verdict: 'earlier' });
  const claimed = await claim(touch.touchId, true);
  if (claimed.outcome !== 'credited') {
    // A referrer that already credited another install is a copy of it: never credited again.
    const check: CarrierCheck = { source: 'metaReferrer', verdict: 'claimed' };
    return Array.isArray(carried) || !carried.answer.matched
      ? decided({ matched: false, reason: 'claimed' }, check)
      : decided(carried.answer, check);
  }
  // Meta's touch is the later one (or the Lander tap's time is unknown): the carrier that answered is earlier.
  const lander = checks.map(
    (check): CarrierCheck => (check.verdict === 'used' ? { ...check, verdict: 'earlier' } : check),
  );
  return decided(metaAnswer(touch), { source: 'metaReferrer', verdict: 'used' }, lander);
}
