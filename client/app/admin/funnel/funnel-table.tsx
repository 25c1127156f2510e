/**
 * A table of the funnel by one grouping (docs/operators.md#attributed-and-organic): per row, its
 * views and taps with the tap rate, its attributed installs with the install rate and their methods,
 * its organic installs apart with their reasons, its app events with their rate per install, and its
 * revenue per currency with its sum in the reporting currency (docs/operators.md#revenue).
 */
import type { MouseEvent } from 'react';
import type { StatsRow } from '../../../../shared/admin-contract.ts';
import { percent } from '../../../../shared/stats-rates.ts';
import { DataTable } from '../shared/data-table.tsx';
import type { FunnelTexts } from './funnel-texts.ts';
import { reportedText, revenueText } from './revenue-text.ts';

/** `name count` pairs, largest first, `·` between; each name in `names` when it has one there. */
export function breakdown(record: Record<string, number>, names: Record<string, string> = {}): string {
  return Object.entries(record)
    .filter(([, count]) => count > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([name, count]) => `${names[name] ?? name} ${count}`)
    .join(' · ');
}

/** Attributed methods only: `byMethod` less its `unmatched:` keys. */
const attributedMethods = (row: StatsRow): Record<string, number> =>
  Object.fromEntries(Object.entries(row.byMethod).filter(([method]) => !method.startsWith('unmatched:')));

/** Each app event with its count and its rate per install. */
const eventsText = (row: StatsRow): string =>
  Object.entries(row.events)
    .sort(([, x], [, y]) => y - x)
    .map(([name, count]) => `${name} ${count} (${percent(row.rates.events[name] ?? null)})`)
    .join(' · ');

export function FunnelTable({
  rows,
  heading,
  className,
  t,
  keyAttribute,
  hrefOf,
  onOpen,
}: {
  rows: StatsRow[];
  /** The grouping's column heading. */
  heading: string;
  className: string;
  t: FunnelTexts;
  /** The data attribute naming each row's key (`data-inviter`…). */
  keyAttribute: string;
  /** The address of a row's drill-down (docs/operators.md#drill-down), when its key opens one. */
  hrefOf?: (key: string) => string;
  /** Opens a row's drill-down in place; a click with a modifier key opens the address instead. */
  onOpen?: (key: string) => void;
}) {
  const name = (key: string) => {
    const text = key || t.none;
    if (!hrefOf) return text;
    const open = (event: MouseEvent<HTMLAnchorElement>) => {
      if (!onOpen || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      onOpen(key);
    };
    return (
      <a href={hrefOf(key)} onClick={open}>
        {text}
      </a>
    );
  };
  return (
    <DataTable
      className={`funnel-table ${className}`}
      head={[
        heading,
        t.views,
        t.taps,
        t.tapRateShort,
        t.attributed,
        t.installRateShort,
        t.methods,
        t.organic,
        t.appEvents,
        t.revenue,
      ]}
      empty={t.noData}
      rows={rows.map((row) => (
        <tr key={row.key} {...{ [keyAttribute]: row.key }}>
          <th scope="row">{name(row.key)}</th>
          <td>{row.views}</td>
          <td>{row.taps}</td>
          <td className="rate">{percent(row.rates.tap)}</td>
          <td>{row.attributed}</td>
          <td className="rate">{percent(row.rates.install)}</td>
          <td className="detail">{breakdown(attributedMethods(row), t.methodNames)}</td>
          <td>
            {row.organic}
            {row.organic > 0 ? <span className="detail"> ({breakdown(row.byUnmatched)})</span> : null}
          </td>
          <td className="detail">{eventsText(row)}</td>
          <td className="detail" data-revenue={row.key}>
            {revenueText(row.revenue, t.moneyLocale)}
            {row.reported && Object.keys(row.revenue ?? {}).length > 0 ? (
              <span className="reported"> ({t.reportedAs(reportedText(row.reported, t.moneyLocale))})</span>
            ) : null}
          </td>
        </tr>
      ))}
    />
  );
}
