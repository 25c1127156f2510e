/**
 * The webhooks panel (docs/webhooks.md#the-console): the endpoints with their state and counts, a
 * form to add one (its secret shown once), and per endpoint enable/disable, test, rotate, delete and
 * its delivery log.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { DEFAULT_EVENT_TYPES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../shared/webhooks.ts';
import { errorText } from './admin-api.ts';
import type { AdminTexts } from './admin-texts.ts';
import { DataTable } from './data-table.tsx';
import { WebhookLog } from './webhook-log.tsx';
import type { EndpointView, WebhooksApi } from './webhooks-api.ts';

function stateOf(endpoint: EndpointView, t: AdminTexts): string {
  if (endpoint.enabled)
    return endpoint.failingSince ? `${t.enabled} (${t.failingSince} ${endpoint.failingSince})` : t.enabled;
  if (endpoint.disabledReason === 'failing') return t.disabledFailing;
  return endpoint.disabledReason === 'gone' ? t.disabledGone : t.disabledByYou;
}

export function WebhooksPanel({ api, t }: { api: WebhooksApi; t: AdminTexts }) {
  const [endpoints, setEndpoints] = useState<EndpointView[]>([]);
  const [secret, setSecret] = useState('');
  const [notice, setNotice] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const reload = useCallback(() => {
    api.list().then(setEndpoints, (failure: unknown) => setNotice(errorText(failure, t)));
  }, [api, t]);
  useEffect(reload, [reload]);

  /** Runs `call`, shows its message or failure, and lists the endpoints again. */
  const act = async (call: () => Promise<string | undefined>) => {
    setNotice('');
    try {
      setNotice((await call()) ?? '');
    } catch (failure) {
      setNotice(errorText(failure, t));
    }
    reload();
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
            <td>
              {endpoint.url}
              {endpoint.description ? <div className="muted">{endpoint.description}</div> : null}
            </td>
            <td>{endpoint.events.join(', ')}</td>
            <td className={endpoint.enabled ? undefined : 'error'}>{stateOf(endpoint, t)}</td>
            <td>{endpoint.counts.delivered}</td>
            <td>{endpoint.counts.pending}</td>
            <td>{endpoint.counts.failed}</td>
            <td>{endpoint.counts.dead}</td>
            <td className="actions">
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
                    return until ? `${t.oldSecretSigns} ${until}` : undefined;
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
            </td>
          </tr>
        ))}
      />
      {endpoints
        .filter((endpoint) => endpoint.id === shown)
        .map((endpoint) => (
          <WebhookLog key={endpoint.id} api={api} endpoint={endpoint} t={t} onChanged={reload} />
        ))}
    </section>
  );
}
