/**
 * The privacy panel (docs/privacy.md#requests-erasure-and-access): the app's erasure and access
 * requests with their status and signed receipts (privacy-table.tsx), and, for a caller who may
 * (`privacy:write`), the form that files one (privacy-form.tsx) and Cancel. A request is carried out
 * by the queue seconds after it was filed: while one is pending or in progress the list is read again
 * every few seconds, for a minute after the panel opened or the last action, so its receipt shows
 * without a reload. A callback's signing secret is shown once.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Language } from '../../../../shared/texts.ts';
import { errorText } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import type { PrivacyApi, PrivacyRequest, PrivacyRequestAnswer, PrivacyStatus } from './privacy-api.ts';
import { PrivacyForm } from './privacy-form.tsx';
import { PrivacyTable } from './privacy-table.tsx';
import { type PrivacyTexts, privacyTexts } from './privacy-texts.ts';

const WATCH_EVERY_MS = 1_500;
const WATCH_FOR_MS = 60_000;

/** The requests, read again after each action and, while one is not done, every few seconds for a while. */
function useRequests(api: PrivacyApi, t: PrivacyTexts, onError: (text: string) => void) {
  const [requests, setRequests] = useState<PrivacyStatus[] | null>(null);
  const watchUntil = useRef(0);
  const reload = useCallback(() => {
    api.list().then(setRequests, (failure: unknown) => onError(errorText(failure, t)));
  }, [api, t, onError]);
  const open = (requests ?? []).some((request) => ['pending', 'in_progress'].includes(request.request_status));
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new list schedules the next read while one is open
  useEffect(() => {
    if (!open || Date.now() > watchUntil.current) return;
    const timer = setTimeout(reload, WATCH_EVERY_MS);
    return () => clearTimeout(timer);
  }, [requests, open, reload]);
  const changed = useCallback(() => {
    watchUntil.current = Date.now() + WATCH_FOR_MS;
    reload();
  }, [reload]);
  useEffect(changed, [changed]);
  return { requests, changed };
}

/** What filing answered: the request's id and, with callbacks, their secret. */
function Filed({ filed, t }: { filed: PrivacyRequestAnswer; t: PrivacyTexts }) {
  return (
    <div className="secret" role="status">
      <p>
        {t.filed} <code data-filed>{filed.subject_request_id}</code>
      </p>
      {filed.callback_secret ? (
        <p>
          {t.callbackOnce} <code data-callback-secret>{filed.callback_secret}</code>
        </p>
      ) : null}
    </div>
  );
}

export function PrivacyPanel({
  api,
  zone,
  language,
  editable,
}: {
  api: PrivacyApi;
  zone: string;
  language: Language;
  /** The caller may file and cancel requests (`privacy:write`). */
  editable: boolean;
}) {
  const t = privacyTexts(language);
  const [error, setError] = useState('');
  const [filed, setFiled] = useState<PrivacyRequestAnswer | null>(null);
  const { requests, changed } = useRequests(api, t, setError);
  const act = async (call: () => Promise<void>): Promise<boolean> => {
    setError('');
    try {
      await call();
      changed();
      return true;
    } catch (failure) {
      setError(errorText(failure, t));
      return false;
    }
  };
  const file = (body: PrivacyRequest) => act(async () => setFiled(await api.make(body)));
  return (
    <section className="panel wide-panel privacy-panel" aria-labelledby="privacy-heading" id="privacy">
      <h2 id="privacy-heading">{t.heading}</h2>
      <p className="hint">{t.hint}</p>
      {editable ? <h3>{t.fileHeading}</h3> : null}
      {editable ? <PrivacyForm t={t} onFile={file} /> : null}
      {filed ? <Filed filed={filed} t={t} /> : null}
      <ErrorAlert message={error} />
      {requests === null ? (
        <p>{t.loading}</p>
      ) : (
        <PrivacyTable
          requests={requests}
          t={t}
          zone={zone}
          onCancel={editable ? (id) => void act(() => api.cancel(id)) : null}
          onData={(id) => void api.downloadData(id).catch((failure: unknown) => setError(errorText(failure, t)))}
        />
      )}
      <div className="controls">
        <button type="button" className="small" onClick={changed}>
          {t.refresh}
        </button>
      </div>
    </section>
  );
}
