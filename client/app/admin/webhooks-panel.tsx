/**
 * The webhooks panel (docs/webhooks.md#the-console): the endpoints with their state and counts, a
 * form to add one (its secret shown once; a URL already added is refused), and per endpoint
 * enable/disable, test, rotate, delete and its delivery log. Times are the operator's zone's; while
 * deliveries are pending the endpoints are read again, so a retry that succeeds shows without a reload.
 */
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { DEFAULT_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../shared/webhooks.ts';
import { errorText } from './admin-api.ts';
import type { AdminTexts } from './admin-texts.ts';
import { DataTable } from './data-table.tsx';
import { WebhookLog } from './webhook-log.tsx';
import type { EndpointView, WebhooksApi } from './webhooks-api.ts';
import { timeIn } from './zoned-time.ts';

/**
 * How often, and for how long after the panel opened or an action, pending deliveries are looked at
 * again: the first retries come within seconds (docs/webhooks.md#delivery); later ones, hours apart,
 * are for Refresh.
 */
const WATCH_EVERY_MS = 1_500;
const WATCH_FOR_MS = 60_000;

function stateOf(endpoint: EndpointView, t: AdminTexts, zone: string): string {
  if (endpoint.enabled)
    return endpoint.failingSince
      ? `${t.enabled} (${t.failingSince} ${timeIn(zone, endpoint.failingSince)})`
      : t.enabled;
  if (endpoint.disabledReason === 'failing') return t.disabledFailing;
  return endpoint.disabledReason === 'gone' ? t.disabledGone : t.disabledByYou;
}

export function WebhooksPanel({
  api,
  t,
  zone,
}: {
  api: WebhooksApi;
  t: AdminTexts;
  /** The operator's time zone, the one the console reports days in. */
  zone: string;
}) {
  const [endpoints, setEndpoints] = useState<EndpointView[]>([]);
  const [secret, setSecret] = useState('');
  const [notice, setNotice] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  // Until when the endpoints are read again while deliveries are pending (0: not watching).
  const watchUntil = useRef(0);
  const reload = useCallback(() => {
    api.list().then(setEndpoints, (failure: unknown) => setNotice(errorText(failure, t)));
  }, [api, t]);
  // A resend or a retry is delivered by the queue after the call answered: while something is
  // pending, read again, so its outcome (counts, "failing since" cleared) shows without a reload.
  // With nothing pending, or a minute after the last action, it asks for nothing.
  const pending = endpoints.some((endpoint) => endpoint.counts.pending > 0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new list schedules the next read while pending
  useEffect(() => {
    if (!pending || Date.now() > watchUntil.current) return;
    const timer = setTimeout(reload, WATCH_EVERY_MS);
    return () => clearTimeout(timer);
  }, [endpoints, pending, reload]);
  /** Lists the endpoints again now, and keeps doing so for a while as long as deliveries are pending. */
  const changed = useCallback(() => {
    watchUntil.current = Date.now() + WATCH_FOR_MS;
    reload();
  }, [reload]);
  // Opened, the panel watches too: a retry due in seconds shows its outcome.
  useEffect(changed, [changed]);

  /** Runs `call`, shows its message or failure, and lists the endpoints again. */
  const act = async (call: () => Promise<string | undefined>) => {
    setNotice('');
    try {
      setNotice((await call()) ?? '');
    } catch (failure) {
      // A URL another endpoint has is the one conflict an add or a change meets (docs/webhooks.md#admin-api).
      setNotice(errorText(failure, t, { 409: t.endpointTaken }));
    }
    changed();
  };

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const events = data.getAll('events').map(String) as WebhookEventType[];
    const description = String(data.get('description') ?? '').trim();
    void act(async () => {
      const made = await api.create({ url: String(data.get('url') ?? '').trim(), events, description });
      setSecret(made.secret);
      form.reset();
      return undefined;
    });
  };

  return (
    <section className="panel wide-panel webhooks-panel" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">{t.webhooks}</h2>
      <form className="link-form" onSubmit={create}>
        <label>
          {t.endpointUrl}
          <input name="url" type="url" required placeholder="https://" autoComplete="off" />
        </label>
        <label>
          {t.description}
          <input name="description" maxLength={200} autoComplete="off" />
        </label>
        <fieldset>
          <legend>{t.eventTypes}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="check">
              <input type="checkbox" name="events" value={type} defaultChecked={DEFAULT_EVENT_TYPES.includes(type)} />
              {type}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="primary">
          {t.addEndpoint}
        </button>
      </form>
      {secret ? (
        <p className="secret" role="status">
          {t.secretOnce} <code>{secret}</code>
        </p>
      ) : null}
      {notice ? <p role="status">{notice}</p> : null}
      <DataTable
        className="webhooks-table"
        head={[t.endpointUrl, t.eventTypes, t.state, t.delivered, t.pending, t.failed, t.dead, '']}
        empty={t.noEndpoints}
        rows={endpoints.map((endpoint) => (
          <tr key={endpoint.id} data-endpoint={endpoint.id} data-enabled={String(endpoint.enabled)}>
            <td className="endpoint-url">
              {endpoint.url}
              {endpoint.description ? <div className="muted">{endpoint.description}</div> : null}
            </td>
            <td>{endpoint.events.join(', ')}</td>
            <td className={endpoint.enabled ? undefined : 'error'}>{stateOf(endpoint, t, zone)}</td>
            <td>{endpoint.counts.delivered}</td>
            <td>{endpoint.counts.pending}</td>
            <td>{endpoint.counts.failed}</td>
            <td>{endpoint.counts.dead}</td>
            <td className="actions">
              <div className="row-actions">
                <button
                  type="button"
                  className="small"
                  onClick={() =>
                    void act(async () => void (await api.update(endpoint.id, { enabled: !endpoint.enabled })))
                  }
                >
                  {endpoint.enabled ? t.disable : t.enable}
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() =>
                    void act(async () => {
                      const result = await api.test(endpoint.id);
                      return result.delivered
                        ? `${t.testDelivered} (${result.status})`
                        : `${t.testFailed}: ${result.error}`;
                    })
                  }
                >
                  {t.sendTest}
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() =>
                    void act(async () => {
                      const rotated = await api.rotate(endpoint.id);
                      setSecret(rotated.secret);
                      const until = rotated.endpoint.previousSecretUntil;
                      return until ? `${t.oldSecretSigns} ${timeIn(zone, until)} (${zone})` : undefined;
                    })
                  }
                >
                  {t.rotate}
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() => setShown(shown === endpoint.id ? null : endpoint.id)}
                >
                  {t.showLog}
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() => void act(async () => void (await api.remove(endpoint.id)))}
                >
                  {t.remove}
                </button>
              </div>
            </td>
          </tr>
        ))}
      />
      {endpoints
        .filter((endpoint) => endpoint.id === shown)
        .map((endpoint) => (
          <WebhookLog key={endpoint.id} api={api} endpoint={endpoint} t={t} zone={zone} onChanged={changed} />
        ))}
    </section>
  );
}
