/**
 * The webhooks panel (docs/webhooks.md#the-console): the endpoints with their state and counts, a
 * form to add one (its secret shown once; a URL already added is refused), and per endpoint
 * enable/disable, test, rotate, delete and its delivery log. Times are the operator's zone's; while
 * deliveries are pending the endpoints are read again, so a retry that succeeds shows without a reload.
 */
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { DEFAULT_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../../shared/webhooks.ts';
import { errorText } from '../shared/admin-client.ts';
import { DataTable } from '../shared/data-table.tsx';
import { timeIn } from '../shared/zoned-time.ts';
import { WebhookLog } from './webhook-log.tsx';
import type { EndpointView, WebhooksApi } from './webhooks-api.ts';
import type { WebhooksTexts } from './webhooks-texts.ts';

/**
 * How often, and for how long after the panel opened or an action, pending deliveries are looked at
 * again: the first retries come within seconds (docs/webhooks.md#delivery); later ones, hours apart,
 * are for Refresh.
 */
const WATCH_EVERY_MS = 1_500;
const WATCH_FOR_MS = 60_000;

/** An endpoint's state as said: enabled (failing since when), or disabled and why. */
function stateOf(endpoint: EndpointView, t: WebhooksTexts, zone: string): string {
  if (endpoint.enabled)
    return endpoint.failingSince
      ? `${t.enabled} (${t.failingSince} ${timeIn(zone, endpoint.failingSince)})`
      : t.enabled;
  if (endpoint.disabledReason === 'failing') return t.disabledFailing;
  return endpoint.disabledReason === 'gone' ? t.disabledGone : t.disabledByYou;
}

/**
 * The endpoints, listed again after each action and, while deliveries are pending, every few seconds
 * for a minute after the panel opened or the last action (`changed`).
 */
function useEndpoints(api: WebhooksApi, t: WebhooksTexts, onError: (text: string) => void) {
  const [endpoints, setEndpoints] = useState<EndpointView[]>([]);
  // Until when the endpoints are read again while deliveries are pending (0: not watching).
  const watchUntil = useRef(0);
  const reload = useCallback(() => {
    api.list().then(setEndpoints, (failure: unknown) => onError(errorText(failure, t)));
  }, [api, t, onError]);
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
  return { endpoints, changed };
}

/** What an endpoint's action gives back: a message to show, or nothing. */
type Act = (call: () => Promise<string | undefined>) => Promise<void>;

export function WebhooksPanel({
  api,
  t,
  zone,
}: {
  api: WebhooksApi;
  t: WebhooksTexts;
  /** The operator's time zone, the one the console reports days in. */
  zone: string;
}) {
  const [secret, setSecret] = useState('');
  const [notice, setNotice] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const { endpoints, changed } = useEndpoints(api, t, setNotice);

  /** Runs `call`, shows its message or failure, and lists the endpoints again. */
  const act: Act = async (call) => {
    setNotice('');
    try {
      setNotice((await call()) ?? '');
    } catch (failure) {
      // A URL another endpoint has is the one conflict an add or a change meets (docs/webhooks.md#admin-api).
      setNotice(errorText(failure, t, { 409: t.endpointTaken }));
    }
    changed();
  };
  const row = { api, t, zone, act, onSecret: setSecret };

  return (
    <section className="panel wide-panel webhooks-panel" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">{t.webhooks}</h2>
      <EndpointForm api={api} t={t} act={act} onSecret={setSecret} />
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
        rows={endpoints.map((endpoint) =>
          endpointRow({ ...row, endpoint, onLog: () => setShown(shown === endpoint.id ? null : endpoint.id) }),
        )}
      />
      {endpoints
        .filter((endpoint) => endpoint.id === shown)
        .map((endpoint) => (
          <WebhookLog key={endpoint.id} api={api} endpoint={endpoint} t={t} zone={zone} onChanged={changed} />
        ))}
    </section>
  );
}

/** The form that adds an endpoint: its URL, a description and the event types it receives. */
function EndpointForm({
  api,
  t,
  act,
  onSecret,
}: {
  api: WebhooksApi;
  t: WebhooksTexts;
  act: Act;
  onSecret: (secret: string) => void;
}) {
  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const events = data.getAll('events').map(String) as WebhookEventType[];
    const description = String(data.get('description') ?? '').trim();
    void act(async () => {
      const made = await api.create({ url: String(data.get('url') ?? '').trim(), events, description });
      onSecret(made.secret);
      form.reset();
      return undefined;
    });
  };
  return (
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
  );
}

interface RowProps {
  api: WebhooksApi;
  endpoint: EndpointView;
  t: WebhooksTexts;
  zone: string;
  act: Act;
  onSecret: (secret: string) => void;
  /** Shows or hides the endpoint's delivery log. */
  onLog: () => void;
}

/**
 * One endpoint's row: its URL and description, events, state and counts, and its actions. A `<tr>`
 * itself, not a component: the table labels the row's own cells (../shared/data-table.tsx).
 */
function endpointRow(props: RowProps) {
  const { endpoint, t, zone } = props;
  return (
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
        <EndpointActions {...props} />
      </td>
    </tr>
  );
}

/** An endpoint's actions: enable or disable, send a test, rotate the secret, its log, delete. */
function EndpointActions({ api, endpoint, t, zone, act, onSecret, onLog }: RowProps) {
  const test = async () => {
    const result = await api.test(endpoint.id);
    return result.delivered ? `${t.testDelivered} (${result.status})` : `${t.testFailed}: ${result.error}`;
  };
  const rotate = async () => {
    const rotated = await api.rotate(endpoint.id);
    onSecret(rotated.secret);
    const until = rotated.endpoint.previousSecretUntil;
    return until ? `${t.oldSecretSigns} ${timeIn(zone, until)} (${zone})` : undefined;
  };
  const toggle = async () => void (await api.update(endpoint.id, { enabled: !endpoint.enabled }));
  const remove = async () => void (await api.remove(endpoint.id));
  return (
    <div className="row-actions">
      <button type="button" className="small" onClick={() => void act(toggle)}>
        {endpoint.enabled ? t.disable : t.enable}
      </button>
      <button type="button" className="small" onClick={() => void act(test)}>
        {t.sendTest}
      </button>
      <button type="button" className="small" onClick={() => void act(rotate)}>
        {t.rotate}
      </button>
      <button type="button" className="small" onClick={onLog}>
        {t.showLog}
      </button>
      <button type="button" className="small" onClick={() => void act(remove)}>
        {t.remove}
      </button>
    </div>
  );
}
