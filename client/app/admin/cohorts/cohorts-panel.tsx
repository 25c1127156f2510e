/**
 * The Cohorts panel (docs/operators.md#cohorts): the console's range as install days, compared by a
 * grouping the operator picks; the cohort triangle of every group together or of one, as retention
 * or value per install in a currency, and the groups' retention curves side by side.
 */
import { useEffect, useState } from 'react';
import { type CohortGrouping, type CohortsAnswer, DEFAULT_COHORT_AGES } from '../../../../shared/cohorts.ts';
import type { Language } from '../../../../shared/texts.ts';
import { errorText, type Range } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import { ALL, byInstallDay, currenciesOf, groupsOf } from './cohort-figures.ts';
import { CohortTriangle } from './cohort-triangle.tsx';
import type { CohortsApi } from './cohorts-api.ts';
import { type CohortsTexts, cohortsTexts } from './cohorts-texts.ts';
import { RetentionCurves } from './retention-curves.tsx';

const GROUPINGS: CohortGrouping[] = ['channel', 'inviter', 'link', 'variant', 'method', 'day'];
const AGES = [7, 14, 30, 90];

/** The cohorts of `range` by `by` up to day `ages`, asked for again when any changes. */
function useCohorts(api: CohortsApi, range: Range, by: CohortGrouping, ages: number, t: CohortsTexts) {
  const [answer, setAnswer] = useState<CohortsAnswer | null>(null);
  const [error, setError] = useState('');
  const { from, to } = range;
  useEffect(() => {
    let stale = false;
    setError('');
    api.cohorts({ from, to }, by, ages).then(
      (got) => {
        if (!stale) setAnswer(got);
      },
      (failure: unknown) => {
        if (!stale) setError(errorText(failure, t));
      },
    );
    return () => {
      stale = true;
    };
  }, [api, from, to, by, ages, t]);
  return { answer, error };
}

export function CohortsPanel({ api, range, language }: { api: CohortsApi; range: Range; language: Language }) {
  const t = cohortsTexts(language);
  const [by, setBy] = useState<CohortGrouping>('channel');
  const [ages, setAges] = useState(DEFAULT_COHORT_AGES);
  const [group, setGroup] = useState(ALL);
  const [metric, setMetric] = useState('');
  const { answer, error } = useCohorts(api, range, by, ages, t);
  const rows = answer?.rows ?? [];
  return (
    <section className="panel wide-panel cohorts" aria-labelledby="cohorts-heading">
      <h2 id="cohorts-heading">{t.cohorts}</h2>
      <p className="hint">{t.cohortsHint}</p>
      <div className="cohort-controls">
        <Choice
          label={t.groupBy}
          value={by}
          onChange={(next) => {
            setBy(next as CohortGrouping);
            setGroup(ALL);
          }}
          options={GROUPINGS.map((name) => [name, t.groupings[name]])}
        />
        <Choice
          label={t.daysAfter}
          value={String(ages)}
          onChange={(next) => setAges(Number(next))}
          options={AGES.map((n) => [String(n), String(n)])}
        />
        {by === 'day' ? null : (
          <Choice
            label={t.triangle}
            value={group}
            onChange={setGroup}
            options={[
              [ALL, t.groupings.day],
              ...groupsOf(rows).map(({ key }): [string, string] => [key, key || t.none]),
            ]}
          />
        )}
        <Choice
          label={t.show}
          value={metric}
          onChange={setMetric}
          options={[['', t.retention], ...currenciesOf(rows).map((code): [string, string] => [code, t.valueIn(code)])]}
        />
      </div>
      <ErrorAlert message={error} />
      {answer === null && !error ? <p>{t.loading}</p> : null}
      {answer && rows.length === 0 ? <p>{t.noCohorts}</p> : null}
      {rows.length > 0 ? (
        <>
          <p className="hint">{t.triangleHint}</p>
          <CohortTriangle rows={byInstallDay(rows, group)} ages={ages} currency={metric || null} t={t} />
          <h3>{t.curves}</h3>
          <p className="hint">{t.curvesHint}</p>
          <RetentionCurves rows={rows} ages={ages} t={t} />
        </>
      ) : null}
    </section>
  );
}

/** A labelled select of `options` (`[value, words]`). */
function Choice(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        {props.options.map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    </label>
  );
}
