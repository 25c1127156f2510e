/**
 * The change of a headline figure against the previous period of the same length
 * (docs/operators.md#compared-with-the-previous-period): `(now − before) ÷ before`.
 */

/** A change: a share (0.25 is +25 %), `new` when there was nothing before, null when both are nothing. */
export type Change = number | 'new' | null;

/** The change from `before` to `now`, rounded to a tenth of a percent. */
export function changeOf(now: number, before: number): Change {
  if (before === 0) return now === 0 ? null : 'new';
  return Math.round(((now - before) / before) * 1000) / 1000;
}

/** A change as a signed percentage: `+25.0%`, `−10.0%`, `±0%` (the console names the period beside it). */
export function changeText(change: number): string {
  if (change === 0) return '±0%';
  const text = `${(Math.abs(change) * 100).toFixed(1)}%`;
  return change > 0 ? `+${text}` : `−${text}`;
}
