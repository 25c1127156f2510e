/**
 * One endpoint's delivery log (docs/webhooks.md#delivery-log): its newest attempts with "resend" on
 * each, and "resend" for every undelivered message of a time range.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { errorText } from '../shared/admin-client.ts';
import { DataTable } from '../shared/data-table.tsx';
import { instantIn, timeIn } from '../shared/zoned-time.ts';
import type { AttemptView, EndpointView, WebhooksApi } from './webhooks-api.ts';
import type { WebhooksTexts } from './webhooks-texts.ts';

/** A `datetime-local` value, read in the operator's `zone`, as ISO 8601. */
const isoOf = (zone: string, local: string): string => new Date(instantIn(zone, local)).toISOString();

export function WebhookLog({
  api,
  endpoint,
  t,
  zone,
  onChanged,
}: {
  api: WebhooksApi;
  endpoint: EndpointView;
  t: WebhooksTexts;
  /** The operator's time zone: the log's times are shown, and the range is read, in it. */
  zone: string;
  /** Called after a resend was queued: the endpoint's state changes as it is delivered. */
  onChanged: () => void;
}) {
  const [attempts, setAttempts] = useState<AttemptView[] | null>(null);
  const [notice, setNotice] = useState('');
  const load = useCallback(() => {
    api.attempts(endpoint.id).then(setAttempts, (failure: unknown) => setNotice(errorText(failure, t)));
  }, [api, endpoint.id, t]);
  // The panel reads the endpoint again while deliveries are pending: each change of its counts is an
  // attempt made, which the log shows without a reload.
  const counts = Object.values(endpoint.counts).join();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `counts` is what the log is read again on
  useEffect(load, [load, counts]);

  const resend = async (body: { id: string } | { from: string; to: string }) => {
    try {
      setNotice(`${t.resent} ${await api.resend(endpoint.id, body)}`);
      onChanged();
    } catch (failure) {
      setNotice(errorText(failure, t));
    }
  };
  return (
    <div className="webhook-log" data-endpoint={endpoint.id}>
      <h3>
        {t.deliveryLog} {endpoint.url}
      </h3>
      <ResendForm t={t} zone={zone} onResend={(range) => void resend(range)} onRefresh={load} />
      {notice ? <p role="status">{notice}</p> : null}
      {attempts === null ? (
        <p>{t.loading}</p>
      ) : (
        <AttemptsTable attempts={attempts} t={t} zone={zone} onResend={(id) => void resend({ id })} />
      )}
    </div>
  );
}

/** "Resend" for every undelivered message of a time range read in `zone`, and "refresh" of the log. */
function ResendForm({
  t,
  zone,
  onResend,
  onRefresh,
}: {
  t: WebhooksTexts;
  zone: string;
  onResend: (range: { from: string; to: string }) => void;
  onRefresh: () => void;
}) {
  const resendRange = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onResend({
      from: isoOf(zone, String(form.get('resendFrom'))),
      to: isoOf(zone, String(form.get('resendTo'))),
    });
  };
  return (
    <form className="link-form" onSubmit={resendRange}>
      <label>
        {t.resendRange} ({zone})
        <input name="resendFrom" type="datetime-local" required />
      </label>
      <label>
        {t.to}
        <input name="resendTo" type="datetime-local" required />
      </label>
      <button type="submit" className="small">
        {t.resend}
      </button>
      <button type="button" className="small" onClick={onRefresh}>
        {t.refresh}
      </button>
    </form>
  );
}

/** The newest attempts, times in `zone`, each but a test's with "resend". */
function AttemptsTable({
  attempts,
  t,
  zone,
  onResend,
}: {
  attempts: AttemptView[];
  t: WebhooksTexts;
  zone: string;
  onResend: (id: string) => void;
}) {
  return (
    <DataTable
      className="attempts-table"
      head={[`${t.time} (${zone})`, t.type, 'webhook-id', t.attempt, t.status, t.latency, t.error, '']}
      empty={t.noAttempts}
      rows={attempts.map((attempt) => (
        <tr key={`${attempt.id}-${attempt.attempt}-${attempt.at}`} data-status={attempt.status}>
          <td>{timeIn(zone, attempt.at)}</td>
          <td>{attempt.type}</td>
          <td>
            <code>{attempt.id}</code>
          </td>
          <td>{attempt.attempt}</td>
          <td>{attempt.status || '—'}</td>
          <td>{attempt.latencyMs} ms</td>
          <td>{attempt.error}</td>
          <td>
            {attempt.type === 'test' ? null : (
              <button type="button" className="small" onClick={() => onResend(attempt.id)}>
                {t.resend}
              </button>
            )}
          </td>
        </tr>
      ))}
    />
  );
}
