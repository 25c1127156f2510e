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

/** A change as read beside its figure: `+25.0%`, `−10.0%`, `±0%`, or the word for new; `''` when none. */
export function changeText(change: Change, newWord: string): string {
  if (change === null) return '';
  if (change === 'new') return newWord;
  if (change === 0) return '±0%';
  const text = `${(Math.abs(change) * 100).toFixed(1)}%`;
  return change > 0 ? `+${text}` : `−${text}`;
}
