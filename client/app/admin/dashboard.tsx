/**
 * The signed-in console (docs/operators.md): a date range, the headline against the previous period,
 * the funnel per channel, the channels' table (attributed and organic apart, with rates), the daily
 * series, the top inviters, Apple's signed postbacks by day (store-postbacks-panel.tsx), the test devices'
 * installs (test-installs-panel.tsx), the links, and CSV export of any grouping. Every funnel figure
 * comes from `/api/stats` for the range; a failed call shows the API's message in place. The links start as the sign-in listed
 * them and do not depend on the range: only Refresh lists them again.
 */
import { type ChangeEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { FIRST_DAY, lastDay, lastDays, rangeRefusal } from '../../../shared/day-range.ts';
import type { Language } from '../../../shared/texts.ts';
import { DEFAULT_TIME_ZONE, dayIn, isTimeZone } from '../../../shared/time-zone.ts';
import { setSearch, useSearch } from './address.ts';
import { type AdminApi, errorText, type Grouping, type LinkView, type Range, type StatsRow } from './admin-api.ts';
import type { AdminTexts } from './admin-texts.ts';
import { DailyChart } from './daily-chart.tsx';
import { type Drill, type Drillable, drillOf, drillSearch, rangeOf } from './drill-down.ts';
import { DrillDownPanel } from './drill-down-panel.tsx';
import { ErrorAlert } from './error-alert.tsx';
import { FraudPanel } from './fraud-panel.tsx';
import { FunnelChart, STEPS, stepLabel } from './funnel-chart.tsx';
import { FunnelTable } from './funnel-table.tsx';
import { Headline } from './headline.tsx';
import { latestOnly, STALE } from './latest-only.ts';
import { Legend } from './legend.tsx';
import { LinksPanel } from './links-panel.tsx';
import { StorePostbacksPanel } from './store-postbacks-panel.tsx';
import { TestInstallsPanel } from './test-installs-panel.tsx';
import { WebhooksPanel } from './webhooks-panel.tsx';

/** The last 7 days up to today in `zone` (the operator's, docs/operators.md#days-and-time-zones), as the stats API's default. */
export function defaultRange(zone = DEFAULT_TIME_ZONE, now = Date.now()): Range {
  return lastDays(7, dayIn(zone, now));
}

const sameRange = (a: Range, b: Range) => a.from === b.from && a.to === b.to;

/**
 * The range to show once the stats name the operator's zone: still the default (UTC's last 7 days),
 * it becomes that zone's; anything else the operator chose stays. The very `shown` object is kept
 * whenever the days do not change — a new object of the same days is a new range to React, which
 * would load the figures again, and again with each answer.
 */
export function zonedRange(shown: Range, zone: string, now = Date.now()): Range {
  if (!sameRange(shown, defaultRange(DEFAULT_TIME_ZONE, now))) return shown;
  const zoned = defaultRange(zone, now);
  return sameRange(zoned, shown) ? shown : zoned;
}

interface Figures {
  channels: StatsRow[];
  days: StatsRow[];
  inviters: StatsRow[];
  /** The previous period's totals, for the headline's changes. */
  previous?: StatsRow;
}

export function Dashboard({
  api,
  initialLinks,
  t,
  language,
  onSignOut,
}: {
  api: AdminApi;
  initialLinks: LinkView[];
  t: AdminTexts;
  language: Language;
  onSignOut?: () => void;
}) {
  // The address holds the range and the drill-down, so a view can be shared (drill-down.ts).
  const address = useSearch();
  const search = useMemo(() => new URLSearchParams(address), [address]);
  const drill = useMemo(() => drillOf(search), [search]);
  // Dates the stats would refuse are never asked for: the default range is shown, with a note why.
  const [start] = useState(() => {
    const named = rangeOf(search);
    const range = named && !('refused' in named) ? named : defaultRange();
    return { range, note: named && 'refused' in named ? t.rangeRefused(named.refused, range) : '' };
  });
  const [range, setRange] = useState<Range>(start.range);
  // What the date fields hold while it is not a range to show (a year being typed, a day past the bounds).
  const [draft, setDraft] = useState<Range | null>(null);
  const [note, setNote] = useState(start.note);
  const [zone, setZone] = useState(DEFAULT_TIME_ZONE);
  const [figures, setFigures] = useState<Figures | null>(null);
  const [links, setLinks] = useState<LinkView[]>(initialLinks);
  const [error, setError] = useState('');
  const [exportBy, setExportBy] = useState<Grouping>('channel');
  const [newest] = useState(latestOnly);

  const load = useCallback(
    async (withLinks: boolean) => {
      setError('');
      try {
        const answer = await newest(
          Promise.all([
            api.stats('channel', range),
            api.compared('day', range),
            api.stats('inviter', range),
            withLinks ? api.links() : undefined,
          ]),
        );
        if (answer === STALE) return;
        const [channels, days, inviters, list] = answer;
        setFigures({
          channels,
          days: days.rows,
          inviters,
          ...(days.previous ? { previous: days.previous.totals } : {}),
        });
        if (list) setLinks(list);
        // The answer names the operator's zone: the default range becomes that zone's last 7 days.
        const named = days.timeZone;
        // A zone this browser does not know is shown but leaves the range as it is.
        if (named) setZone(named);
        if (named && isTimeZone(named)) {
          setRange((shown) => zonedRange(shown, named));
        }
      } catch (failure) {
        setError(errorText(failure, t));
      }
    },
    [api, range, newest, t],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  const setDay = (end: keyof Range) => (event: ChangeEvent<HTMLInputElement>) => {
    if (!event.target.value) return;
    const next = { ...(draft ?? range), [end]: event.target.value };
    const refused = rangeRefusal(next);
    setDraft(refused ? next : null);
    setNote(refused ? t.rangeRefused(refused, range) : '');
    if (refused) return;
    setRange(next);
    if (drill) setSearch(drillSearch(drill, next), true);
  };
  const open = (to: Drill | null) => setSearch(drillSearch(to, range));
  const shown = draft ?? range;
  const last = lastDay();
  const opener = (by: Drillable) => ({
    hrefOf: (key: string) => drillSearch({ by, key }, range),
    onOpen: (key: string) => open({ by, key }),
  });
  const exportCsv = () => {
    api.downloadCsv(exportBy, range).catch((failure: unknown) => setError(errorText(failure, t)));
  };

  return (
    <>
      <header className="admin-header">
        <div className="admin-title">
          <h1>{t.heading}</h1>
          <div className="controls">
            <a href="/api/docs" target="_blank" rel="noreferrer">
              {t.apiReference}
            </a>
            {onSignOut ? (
              <button type="button" onClick={onSignOut}>
                {t.signOut}
              </button>
            ) : null}
          </div>
        </div>
        {/* Two groups that wrap as wholes: the range the figures cover, and what the CSV holds. */}
        <form className="range" onSubmit={(event) => event.preventDefault()}>
          <div className="controls">
            <label>
              {t.from}
              <input
                type="date"
                name="from"
                value={shown.from}
                min={FIRST_DAY}
                max={range.to}
                onChange={setDay('from')}
              />
            </label>
            <label>
              {t.to}
              <input type="date" name="to" value={shown.to} min={range.from} max={last} onChange={setDay('to')} />
            </label>
            <span className="zone" title={t.timeZone}>
              {zone}
            </span>
            <button type="button" onClick={() => void load(true)}>
              {t.refresh}
            </button>
          </div>
          <div className="controls">
            <label>
              {t.exportBy}
              <select value={exportBy} onChange={(event) => setExportBy(event.target.value as Grouping)}>
                <option value="channel">{t.channel}</option>
                <option value="day">{t.day}</option>
                <option value="inviter">{t.inviter}</option>
                <option value="link">{t.link}</option>
              </select>
            </label>
            <button type="button" className="primary" onClick={exportCsv}>
              {t.exportCsv}
            </button>
          </div>
        </form>
      </header>
      {note ? (
        <p className="range-note" role="status">
          {note}
        </p>
      ) : null}
      <ErrorAlert message={error} />
      {drill ? <DrillDownPanel api={api} range={range} drill={drill} t={t} onClose={() => open(null)} /> : null}
      {figures ? <Figures figures={figures} t={t} opener={opener} /> : <p>{t.loading}</p>}
      <StorePostbacksPanel api={api} range={range} t={t} />
      <FraudPanel api={api.fraud} range={range} language={language} />
      <TestInstallsPanel api={api} t={t} language={language} />
      <LinksPanel
        api={api}
        links={links}
        onCreated={(link) => setLinks([link, ...links])}
        onChanged={(changed) => setLinks(links.map((link) => (link.slug === changed.slug ? changed : link)))}
        t={t}
        opener={opener('link')}
        range={range}
        zone={zone}
      />
      <WebhooksPanel api={api.webhooks} t={t} zone={zone} />
    </>
  );
}

function Figures({
  figures,
  t,
  opener,
}: {
  figures: Figures;
  t: AdminTexts;
  opener: (by: Drillable) => { hrefOf: (key: string) => string; onOpen: (key: string) => void };
}) {
  const { channels, days, inviters, previous } = figures;
  return (
    <div className="figures">
      <Headline rows={days} {...(previous ? { previous } : {})} t={t} />
      <section className="panel" aria-labelledby="funnel-heading">
        <h2 id="funnel-heading">{t.funnel}</h2>
        <Legend keys={STEPS.map((step) => [`bar-${step}`, stepLabel(step, t)] as const)} />
        {channels.length > 0 ? <FunnelChart rows={channels.slice(0, 8)} t={t} /> : <p>{t.noData}</p>}
      </section>
      <section className="panel" aria-labelledby="daily-heading">
        <h2 id="daily-heading">{t.daily}</h2>
        <Legend
          keys={[
            ['bar-views', t.views],
            ['line-taps', t.taps],
            ['line-installs', t.attributed],
            ['line-organic', t.organic],
          ]}
        />
        <DailyChart rows={days} t={t} />
      </section>
      <section className="panel wide-panel" aria-labelledby="channels-heading">
        <h2 id="channels-heading">{t.channels}</h2>
        <FunnelTable
          className="channels-table"
          heading={t.channel}
          keyAttribute="data-channel-row"
          rows={channels}
          {...opener('channel')}
          t={t}
        />
      </section>
      <section className="panel wide-panel" aria-labelledby="inviters-heading">
        <h2 id="inviters-heading">{t.inviters}</h2>
        <FunnelTable
          className="inviters-table"
          heading={t.inviter}
          keyAttribute="data-inviter"
          {...opener('inviter')}
          rows={inviters.filter((row) => row.key !== '').slice(0, 10)}
          t={t}
        />
      </section>
    </div>
  );
}
