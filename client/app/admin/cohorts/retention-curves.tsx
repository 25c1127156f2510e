/**
 * Retention curves side by side (docs/operators.md#cohorts): one small chart per group (channel,
 * inviter, …), every chart on the same scale — 0 to 100 % up, day 0 to the last day across — so two
 * groups are compared by eye. Plain SVG, as the console's other charts.
 */

import type { CohortRow } from '../../../../shared/cohorts.ts';
import { curvesOf } from './cohort-figures.ts';
import type { CohortsTexts } from './cohorts-texts.ts';

const WIDTH = 200;
const HEIGHT = 110;
/** The most groups drawn: the ones with the most installs. */
const SHOWN = 6;

const pointsOf = (curve: readonly (number | null)[], ages: number): string =>
  curve
    .map((share, age) =>
      share === null ? null : `${((age / Math.max(ages, 1)) * WIDTH).toFixed(1)},${((1 - share) * HEIGHT).toFixed(1)}`,
    )
    .filter((point) => point !== null)
    .join(' ');

/** The last day of `curve` reached, and its share, said in words. */
function lastOf(curve: readonly (number | null)[], t: CohortsTexts): string {
  for (let age = curve.length - 1; age >= 0; age -= 1) {
    const share = curve[age];
    if (share !== null && share !== undefined) return t.retainedOn(age, `${(share * 100).toFixed(1)}%`);
  }
  return '';
}

export function RetentionCurves({ rows, ages, t }: { rows: readonly CohortRow[]; ages: number; t: CohortsTexts }) {
  const curves = curvesOf(rows, ages, SHOWN);
  return (
    <ul className="retention-curves">
      {curves.map(({ key, installs, curve }) => (
        <li key={key} data-curve={key}>
          <figure>
            <figcaption>{t.curveLabel(key || t.none, installs)}</figcaption>
            <svg
              viewBox={`-44 -10 ${WIDTH + 56} ${HEIGHT + 32}`}
              role="img"
              aria-label={`${key || t.none} ${lastOf(curve, t)}`}
            >
              {[0, 0.5, 1].map((level) => (
                <g key={level}>
                  <line className="cohort-grid" x1={0} x2={WIDTH} y1={(1 - level) * HEIGHT} y2={(1 - level) * HEIGHT} />
                  <text className="cohort-axis" x={-4} y={(1 - level) * HEIGHT + 5} textAnchor="end">
                    {`${level * 100}%`}
                  </text>
                </g>
              ))}
              <text className="cohort-axis" x={0} y={HEIGHT + 19}>
                {t.dayN(0)}
              </text>
              <text className="cohort-axis" x={WIDTH} y={HEIGHT + 19} textAnchor="end">
                {t.dayN(ages)}
              </text>
              <polyline className="cohort-curve" points={pointsOf(curve, ages)} />
            </svg>
            <p className="hint">{lastOf(curve, t)}</p>
          </figure>
        </li>
      ))}
    </ul>
  );
}
