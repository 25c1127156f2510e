/**
 * The per-install fraud rules (docs/fraud.md): deterministic checks of an install's times, each a
 * flag with its reason. A flag marks an install for the operator; the app's answer never changes.
 * Self-referral needs stored identities and is decided in self-referral.ts.
 */
import type { Flag, ReferrerTimes } from '../facts.ts';

/** What the time rules read of one install. */
export interface InstallTimes {
  /** When the matched click was recorded (the ledger's `clickedAt`), ms; null when unknown. */
  clickedAt: number | null;
  /** `clickedAt` is Meta's ad click (`actual_timestamp` of its install referrer), not a Lander tap. */
  meta?: boolean;
  /** The first launch (the install call), ms. */
  launchedAt: number;
  referrer?: ReferrerTimes | undefined;
  /** `fraud.too_fast_seconds`. */
  tooFastSeconds: number;
}

const known = (seconds: number | undefined): number | null =>
  seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : null;

/**
 * Click injection: a click recorded after the install began cannot have caused it. Each click time
 * is compared with the install-begin of the same clock (Play's server with server, the device's
 * with device); the ledger's click, by our clock, with install-begin, server's first. Compared in
 * whole seconds, as Play gives them, so a click before install-begin is never flagged.
 */
export function clickInjection(times: InstallTimes): Flag | null {
  const r = times.referrer ?? {};
  const serverBegin = known(r.installBeginTimestampServerSeconds);
  const clientBegin = known(r.installBeginTimestampSeconds);
  const pairs: [string, number | null, number | null][] = [
    ['referrer click (Play server clock)', known(r.referrerClickTimestampServerSeconds), serverBegin],
    ['referrer click (device clock)', known(r.referrerClickTimestampSeconds), clientBegin],
    [
      times.meta ? "Meta's ad click" : 'recorded click',
      times.clickedAt === null ? null : Math.floor(times.clickedAt / 1000),
      serverBegin ?? clientBegin,
    ],
  ];
  for (const [what, click, begin] of pairs) {
    if (click !== null && begin !== null && click > begin) {
      return { rule: 'click_injection', reason: `${what} ${click - begin} s after install began` };
    }
  }
  return null;
}

/**
 * Too fast: from the click to the first launch in less than `too_fast_seconds`. The click is the
 * recorded one, else the referrer's (server clock, then device clock); without either, no flag.
 */
export function tooFast(times: InstallTimes): Flag | null {
  const r = times.referrer ?? {};
  const referrerClick = known(r.referrerClickTimestampServerSeconds) ?? known(r.referrerClickTimestampSeconds);
  const clickMs = times.clickedAt ?? (referrerClick === null ? null : referrerClick * 1000);
  if (clickMs === null) return null;
  const seconds = (times.launchedAt - clickMs) / 1000;
  if (seconds < 0 || seconds >= times.tooFastSeconds) return null;
  return {
    rule: 'too_fast',
    reason: `first launch ${seconds.toFixed(1)} s after the click (floor ${times.tooFastSeconds} s)`,
  };
}

/** The time rules' flags on one install, in rule order. */
export function timeFlags(times: InstallTimes): Flag[] {
  return [clickInjection(times), tooFast(times)].filter((flag): flag is Flag => flag !== null);
}
