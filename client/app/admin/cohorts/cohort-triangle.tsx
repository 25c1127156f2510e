/**
 * The cohort triangle (docs/operators.md#cohorts): a heat map, one row per install day, one column
 * per day after the install, each cell's shade its share (retention) or its value per install against
 * the table's largest. A day not reached yet is empty, so the table's lower right is the triangle's edge.
 */
import type { CohortRow } from '../../../../shared/cohorts.ts';
import { exponentOf } from '../../../../shared/money.ts';
import { cellOf, shownAges } from './cohort-figures.ts';
import type { CohortsTexts } from './cohorts-texts.ts';

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** A value per install in `currency`'s major unit, as few decimals as it needs. */
function money(perInstall: number, currency: string): string {
  const exponent = exponentOf(currency) ?? 2;
  return (perInstall / 10 ** exponent).toFixed(perInstall === 0 ? 0 : Math.min(exponent, 2));
}

export function CohortTriangle({
  rows,
  ages,
  currency,
  t,
}: {
  rows: readonly CohortRow[];
  ages: number;
  currency: string | null;
  t: CohortsTexts;
}) {
  const days = shownAges(ages);
  const cells = rows.map((row) => days.map((age) => cellOf(row, age, currency)));
  const top = Math.max(0, ...cells.flat().map((cell) => Math.abs(cell ?? 0)));
  return (
    <table className="cohort-triangle" data-cohort-metric={currency ?? 'retention'}>
      <caption>{t.triangle}</caption>
      <thead>
        <tr>
          <th scope="col">{t.installDay}</th>
          <th scope="col">{t.installs}</th>
          {days.map((age) => (
            <th scope="col" key={age}>
              {t.dayN(age)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, at) => (
          <tr key={row.day} data-cohort-day={row.day}>
            <th scope="row">{row.day.slice(5)}</th>
            <td>{row.installs}</td>
            {days.map((age, column) => {
              const cell = cells[at]?.[column] ?? null;
              const shade = cell === null || top === 0 ? 0 : Math.abs(cell) / top;
              return (
                <td
                  key={age}
                  className={
                    cell === null ? 'cohort-cell unreached' : shade > 0.55 ? 'cohort-cell dark' : 'cohort-cell'
                  }
                  style={{ '--shade': shade.toFixed(3) } as React.CSSProperties}
                >
                  {cell === null ? '' : currency === null ? percent(cell) : money(cell, currency)}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
