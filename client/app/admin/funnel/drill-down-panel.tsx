/**
 * One channel, inviter or link opened (docs/operators.md#drill-down): its headline against the
 * previous period, its install methods and organic reasons, its fraud flags, and its figures by
 * day, by OS and by in-app browser. The address holds which one (../shared/drill-down.ts).
 */
import { useEffect, useRef, useState } from 'react';
import type { StatsRow } from '../../../../shared/admin-contract.ts';
import { splitInstalls, sumRows } from '../../../../shared/stats-rates.ts';
import { errorText, type Range } from '../shared/admin-client.ts';
import { type Drill, filterOf } from '../shared/drill-down.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import { latestOnly, STALE } from '../shared/latest-only.ts';
import type { FunnelApi } from './funnel-api.ts';
import { breakdown, FunnelTable } from './funnel-table.tsx';
import type { FunnelTexts } from './funnel-texts.ts';
import { Headline } from './headline.tsx';

/** What a drill-down read: its days, the previous period's totals, its OSes and in-app browsers. */
export interface Opened {
  days: StatsRow[];
  previous?: StatsRow;
  os: StatsRow[];
  inapp: StatsRow[];
}

/** The flagged installs of `rows` added up: in all, by rule, and those excluded from the counted ones. */
export function flagsOf(rows: readonly StatsRow[]): {
  installs: number;
  byRule: Record<string, number>;
  excluded: number;
} {
  const flags = { installs: 0, byRule: {} as Record<string, number>, excluded: 0 };
  for (const row of rows) {
    flags.installs += row.flagged.installs;
    flags.excluded += row.flagged.excluded;
    for (const [rule, count] of Object.entries(row.flagged.byRule))
      flags.byRule[rule] = (flags.byRule[rule] ?? 0) + count;
  }
  return flags;
}

export function DrillDownPanel({
  api,
  range,
  drill,
  t,
  onClose,
}: {
  api: FunnelApi;
  range: Range;
  drill: Drill;
  t: FunnelTexts;
  onClose: () => void;
}) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const [error, setError] = useState('');
  const [newest] = useState(latestOnly);
  const panel = useRef<HTMLElement>(null);
  const shown = `${drill.by}:${drill.key}`;
  // Opened from a table further down: bring each newly opened view into sight (it sits above the figures).
  useEffect(() => {
    if (shown) panel.current?.scrollIntoView?.({ block: 'start' });
  }, [shown]);

  useEffect(() => {
    const filter = filterOf(drill);
    setError('');
    newest(
      Promise.all([
        api.compared('day', range, filter),
        api.stats('os', range, filter),
        api.stats('inapp', range, filter),
      ]),
    )
      .then((answer) => {
        if (answer === STALE) return;
        const [days, os, inapp] = answer;
        setOpened({ days: days.rows, os, inapp, ...(days.previous ? { previous: days.previous.totals } : {}) });
      })
      .catch((failure: unknown) => setError(errorText(failure, t)));
  }, [api, range, drill, newest, t]);

  const label = { channel: t.channel, inviter: t.inviter, link: t.link }[drill.by];
  return (
    <section className="panel wide-panel drill-down" aria-labelledby="drill-heading" data-drill={shown}>
      <div className="admin-title">
        <h2 id="drill-heading">
          {label}: {drill.key || t.none}
        </h2>
        <button type="button" onClick={onClose}>
          {t.close}
        </button>
      </div>
      <ErrorAlert message={error} />
      {opened ? <DrillDownFigures opened={opened} t={t} /> : error ? null : <p>{t.loading}</p>}
    </section>
  );
}

/** What an opened drill-down shows: its headline, its methods, why installs were not matched, flags, and its tables. */
export function DrillDownFigures({ opened, t }: { opened: Opened; t: FunnelTexts }) {
  const { days, previous, os, inapp } = opened;
  const split = splitInstalls(sumRows(days).byMethod);
  const flags = flagsOf(days);
  return (
    <>
      <Headline rows={days} {...(previous ? { previous } : {})} t={t} />
      <dl className="drill-facts">
        <div data-fact="methods">
          <dt>{t.methods}</dt>
          <dd>{breakdown(split.byAttributed, t.methodNames) || '–'}</dd>
        </div>
        {/* The organic installs' count is the headline's; here only why they were not matched. */}
        <div data-fact="unmatched">
          <dt>{t.unmatchedReasons}</dt>
          <dd>{breakdown(split.byUnmatched) || '–'}</dd>
        </div>
        <div data-fact="flags">
          <dt>{t.flags}</dt>
          <dd>
            {flags.installs === 0
              ? t.noFlags
              : `${flags.installs} ${t.flagged}: ${breakdown(flags.byRule)}; ${flags.excluded} ${t.excluded}`}
          </dd>
        </div>
      </dl>
      <h3>{t.daily}</h3>
      <FunnelTable rows={days} heading={t.day} className="days-table" keyAttribute="data-day-row" t={t} />
      <h3>{t.os}</h3>
      <FunnelTable rows={os} heading={t.os} className="os-table" keyAttribute="data-os" t={t} />
      <h3>{t.inapp}</h3>
      <FunnelTable rows={inapp} heading={t.inapp} className="inapp-table" keyAttribute="data-inapp" t={t} />
    </>
  );
}
