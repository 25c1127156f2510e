/**
 * The destinations (docs/conversions.md#admin-api): each with its platform, state and delivery
 * counts, and its actions — edit, enable or disable, send a test event, its delivery log, delete —
 * and the delivery log of the one opened: each attempt's time on the operator's clock, the event,
 * attempt, HTTP status, outcome, latency and error.
 */
import { DataTable } from '../shared/data-table.tsx';
import { timeIn } from '../shared/zoned-time.ts';
import type { ConversionAttemptView, DestinationView } from './conversions-api.ts';
import type { ConversionsTexts } from './conversions-texts.ts';

export interface DestinationActions {
  edit(destination: DestinationView): void;
  toggle(destination: DestinationView): void;
  test(destination: DestinationView): void;
  remove(destination: DestinationView): void;
}

function Actions({
  destination,
  actions,
  t,
}: {
  destination: DestinationView;
  actions: DestinationActions | null;
  t: ConversionsTexts;
}) {
  if (!actions) return null;
  const button = (label: string, act: () => void) => (
    <button type="button" className="small" onClick={act}>
      {label}
    </button>
  );
  return (
    <div className="row-actions">
      {button(t.edit, () => actions.edit(destination))}
      {button(destination.enabled ? t.disable : t.enable, () => actions.toggle(destination))}
      {button(t.sendTest, () => actions.test(destination))}
      {button(t.remove, () => actions.remove(destination))}
    </div>
  );
}

export function DestinationTable({
  destinations,
  actions,
  onLog,
  t,
}: {
  destinations: DestinationView[];
  /** Null for a reader without `conversions:write`. */
  actions: DestinationActions | null;
  onLog: (destination: DestinationView) => void;
  t: ConversionsTexts;
}) {
  const rows = destinations.map((destination) => {
    const { delivered, pending, failed, dead } = destination.counts;
    return (
      <tr key={destination.id} data-destination={destination.id}>
        <td>
          <strong>{destination.name || t.platforms[destination.platform]}</strong>
          <br />
          <span className="muted">{t.platforms[destination.platform]}</span>
        </td>
        <td className={destination.enabled ? 'state on' : 'state off'}>
          {destination.enabled ? t.enabled : t.disabled}
        </td>
        <td className="counts">{`${delivered} / ${pending} / ${failed} / ${dead}`}</td>
        <td>
          <button type="button" className="small" onClick={() => onLog(destination)}>
            {t.showLog}
          </button>
          <Actions destination={destination} actions={actions} t={t} />
        </td>
      </tr>
    );
  });
  return (
    <DataTable
      className="conversion-table"
      head={[t.destination, t.state, t.counts, t.actions]}
      rows={rows}
      empty={t.noDestinations}
    />
  );
}

export function AttemptLog({
  attempts,
  zone,
  t,
}: {
  attempts: ConversionAttemptView[];
  zone: string;
  t: ConversionsTexts;
}) {
  const rows = attempts.map((attempt) => (
    <tr key={`${attempt.eventId}-${attempt.attempt}-${attempt.at}`} data-outcome={attempt.outcome}>
      <td>{timeIn(zone, attempt.at)}</td>
      <td>{attempt.name}</td>
      <td>{attempt.attempt}</td>
      <td>{attempt.status || '—'}</td>
      <td className={`outcome ${attempt.outcome}`}>{t.outcomes[attempt.outcome] ?? attempt.outcome}</td>
      <td>{`${attempt.latencyMs} ms`}</td>
      <td className="error">{attempt.error}</td>
    </tr>
  ));
  return (
    <DataTable
      className="conversion-log"
      head={[t.time, t.event, t.attempt, t.status, t.outcome, t.latency, t.error]}
      rows={rows}
      empty={t.noAttempts}
    />
  );
}
