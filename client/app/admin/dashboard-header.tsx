/**
 * The dashboard's header (docs/operators.md#the-console): the heading with the app switcher, the
 * API reference and sign-out, then two groups that wrap as wholes — the range the figures cover (its days, the
 * operator's zone, Refresh) and what the CSV export holds.
 */
import { type ChangeEvent, useEffect, useState } from 'react';
import type { AppsAnswer } from '../../../shared/apps.ts';
import { FIRST_DAY, lastDay } from '../../../shared/day-range.ts';
import type { AdminApi } from './admin-api.ts';
import type { AdminTexts } from './admin-texts.ts';
import type { Grouping } from './funnel/funnel-api.ts';
import { errorText, type Range } from './shared/admin-client.ts';

export function DashboardHeader({
  api,
  t,
  range,
  shown,
  zone,
  setDay,
  onRefresh,
  onError,
  onSignOut,
}: {
  api: AdminApi;
  t: AdminTexts;
  /** The range the figures cover. */
  range: Range;
  /** What the date fields hold: the range, or a change the stats would refuse. */
  shown: Range;
  zone: string;
  setDay: (end: keyof Range) => (event: ChangeEvent<HTMLInputElement>) => void;
  onRefresh: () => void;
  onError: (text: string) => void;
  onSignOut?: (() => void) | undefined;
}) {
  const last = lastDay();
  return (
    <header className="admin-header">
      <div className="admin-title">
        <h1>{t.heading}</h1>
        <div className="controls">
          <AppSwitcher api={api} t={t} />
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
          <button type="button" onClick={onRefresh}>
            {t.refresh}
          </button>
        </div>
        <CsvExport api={api} t={t} range={range} onError={onError} />
      </form>
    </header>
  );
}

/**
 * The app switcher (docs/routes.md#apps): the apps this sign-in may see, the console's own selected;
 * choosing another opens that app's console where the worker says it is reached from this host
 * (`/@notes/admin`, whose API is `/@notes/api`, or the app's own host). Nothing shows while there is one app, or when the list cannot be read.
 */
function AppSwitcher({ api, t }: { api: AdminApi; t: AdminTexts }) {
  const [answer, setAnswer] = useState<AppsAnswer | null>(null);
  useEffect(() => {
    api.apps().then(setAnswer, () => setAnswer(null));
  }, [api]);
  if (!answer || answer.apps.length < 2) return null;
  const open = (event: ChangeEvent<HTMLSelectElement>) => {
    const app = answer.apps.find((item) => item.id === event.target.value);
    if (app?.console) location.assign(app.console);
  };
  return (
    <label className="app-switcher">
      {t.app}
      <select name="app" value={answer.current} onChange={open}>
        {answer.apps.map((app) => (
          <option key={app.id} value={app.id} disabled={app.console === null}>
            {app.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The CSV export: which grouping its rows are per, and the download of the range's. */
function CsvExport({
  api,
  t,
  range,
  onError,
}: {
  api: AdminApi;
  t: AdminTexts;
  range: Range;
  onError: (text: string) => void;
}) {
  const [exportBy, setExportBy] = useState<Grouping>('channel');
  const exportCsv = () => {
    api.downloadCsv(exportBy, range).catch((failure: unknown) => onError(errorText(failure, t)));
  };
  return (
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
  );
}
