/**
 * The probabilistic match's rules (docs/attribution.md), as pure functions: what a click and an
 * install must share to be the same person, and how sure a unique match is. Rows come from one
 * network bucket, so the network is already shared.
 */
import type { TupleField } from '../../shared/install-explanation.ts';
import type { OsFamily } from '../facts.ts';
import { sameVersion } from './os-version.ts';

/** What a click or an install tells about the device, normalised so both sides compare. */
export interface DeviceTuple {
  family: OsFamily;
  /** See os-version.ts: `major` or `major.minor`, null when not known. */
  version: string | null;
  /** Android's model where both tell one, else null. */
  model: string | null;
  /** The screen in points (CSS pixels, dp), short side then long side: orientation does not matter. */
  short: number;
  long: number;
  /** Device pixels per point (`devicePixelRatio`, the app's `scale` or `density`). */
  scale: number;
  /** IANA time zone. */
  tz: string;
  /** The primary language's subtag, lower case (`zh`, `en`). */
  lang: string;
}

/** Points differ by rounding between a browser and an app (dp from fractional densities). */
const SCREEN_TOLERANCE = 2;
/** Within a tenth, inclusive: the epsilon keeps 3 and 3.1 (0.10000000000000009 apart in floating point) within it. */
const SCALE_TOLERANCE = 0.1 + 1e-9;

/** A screen as the tuple holds it: whole points, short side first. */
export function screenSides(w: number, h: number): { short: number; long: number } {
  const a = Math.round(w);
  const b = Math.round(h);
  return { short: Math.min(a, b), long: Math.max(a, b) };
}

/** The primary language subtag of a language list (`zh-Hans-CN` and `zh-CN` are both `zh`). */
export function primaryLanguageOf(langs: readonly string[]): string {
  return (/^[A-Za-z]{2,8}/.exec(langs[0] ?? '')?.[0] ?? '').toLowerCase();
}

/**
 * The first fact that tells a click and an install apart (the network aside), in the order of
 * TUPLE_FIELDS; null when they can be the same device and person. The explanation counts these.
 */
export function firstDifference(click: DeviceTuple, install: DeviceTuple): TupleField | null {
  if (click.family !== install.family) return 'os';
  if (click.tz !== install.tz) return 'timeZone';
  if (click.lang !== install.lang) return 'language';
  if (!sameVersion(click.version, install.version)) return 'osVersion';
  if (click.model !== null && install.model !== null && click.model.toLowerCase() !== install.model.toLowerCase()) {
    return 'model';
  }
  if (
    Math.abs(click.short - install.short) > SCREEN_TOLERANCE ||
    Math.abs(click.long - install.long) > SCREEN_TOLERANCE
  ) {
    return 'screen';
  }
  if (Math.abs(click.scale - install.scale) > SCALE_TOLERANCE) return 'scale';
  return null;
}

/** Whether a click and an install can be the same device and person (the network aside). */
export function compatible(click: DeviceTuple, install: DeviceTuple): boolean {
  return firstDifference(click, install) === null;
}

/**
 * How sure a unique probabilistic match is, 0–100: uniqueness on the network is the base; each
 * extra fact both sides told and agreed on adds to it. Never 100: that is for carriers.
 */
export function matchConfidence(
  click: DeviceTuple,
  install: DeviceTuple,
  evidence: { sameAddress: boolean; minutes: number },
): number {
  let score = 60;
  if (click.version !== null && install.version !== null) score += 10;
  if (click.model !== null && install.model !== null) score += 10;
  if (evidence.sameAddress) score += 10;
  if (evidence.minutes <= 15) score += 5;
  return Math.min(score, 95);
}
