/**
 * The Store postbacks panel (docs/store-postbacks.md): Apple's signed SKAdNetwork and
 * AdAttributionKit copies counted in the console's range, beside the funnel's days and apart from
 * them — each day's totals, then the aggregates Apple gave (`GET /api/store-postbacks`).
 */
import { useEffect, useState } from 'react';
import type { StorePostbackGroup, StorePostbacksView } from '../../../../shared/store-postbacks.ts';
import { errorText, type Range } from '../shared/admin-client.ts';
import { DataTable } from '../shared/data-table.tsx';
import { ErrorAlert } from '../shared/error-alert.tsx';
import type { StorePostbacksApi } from './store-postbacks-api.ts';
import type { StorePostbacksTexts } from './store-postbacks-texts.ts';

/** The most aggregate rows shown; the day totals count all of them. */
const SHOWN = 50;

const FRAMEWORK = { skadnetwork: 'SKAdNetwork', adattributionkit: 'AdAttributionKit' } as const;

/** The conversion value as Apple's tier gave it: fine, coarse, or none. */
const conversionOf = (group: StorePostbackGroup): string =>
  group.conversionValue !== null ? String(group.conversionValue) : (group.coarseValue ?? '–');

export function StorePostbacksPanel({
  api,
  range,
  t,
}: {
  api: StorePostbacksApi;
  range: Range;
  t: StorePostbacksTexts;
}) {
  const [view, setView] = useState<StorePostbacksView | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let stale = false;
    setError('');
    api.storePostbacks(range.from).then(
      (answer) => {
        if (!stale) setView(answer);
      },
      (failure: unknown) => {
        if (!stale) setError(errorText(failure, t));
      },
    );
    return () => {
      stale = true;
    };
  }, [api, range.from, t]);

  return (
    <section className="panel wide-panel store-postbacks" aria-labelledby="store-postbacks-heading">
      <h2 id="store-postbacks-heading">{t.storePostbacks}</h2>
      <p className="hint">{t.storePostbacksHint}</p>
      <ErrorAlert message={error} />
      {view === null && !error ? <p>{t.loading}</p> : null}
      {view ? <StorePostbackTables view={view} to={range.to} t={t} /> : null}
    </section>
  );
}

/** The day totals and the aggregates of `view`, up to the day `to`. */
export function StorePostbackTables({ view, to, t }: { view: StorePostbacksView; to: string; t: StorePostbacksTexts }) {
  const inRange = <T extends { day: string }>(rows: T[]) => rows.filter((row) => row.day <= to);
  return (
    <>
      <DataTable
        className="store-days-table"
        head={[t.day, FRAMEWORK.skadnetwork, FRAMEWORK.adattributionkit]}
        empty={t.noStorePostbacks}
        rows={inRange(view.days).map((day) => (
          <tr key={day.day} data-store-day={day.day}>
            <th scope="row">{day.day}</th>
            <td>{day.skadnetwork}</td>
            <td>{day.adattributionkit}</td>
          </tr>
        ))}
      />
      <DataTable
        className="store-groups-table"
        head={[
          t.day,
          t.framework,
          t.source,
          t.publisher,
          t.conversionValue,
          t.postbackWindow,
          t.country,
          t.reengagement,
          t.postbacks,
        ]}
        empty=""
        rows={inRange(view.groups)
          .slice(0, SHOWN)
          .map((group) => (
            // A group is unique by all of its values: they are what it groups by.
            <tr key={JSON.stringify(group)} data-store-source={group.source}>
              <th scope="row">{group.day}</th>
              <td>{group.version ? `${FRAMEWORK[group.kind]} ${group.version}` : FRAMEWORK[group.kind]}</td>
              <td>{group.source || '–'}</td>
              <td>{group.publisher || '–'}</td>
              <td>{conversionOf(group)}</td>
              <td>{group.sequenceIndex + 1}</td>
              <td>{group.countryCode ?? '–'}</td>
              <td>{group.reengagement ? t.yes : ''}</td>
              <td>{group.postbacks}</td>
            </tr>
          ))}
      />
    </>
  );
}
