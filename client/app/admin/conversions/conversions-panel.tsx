/**
 * The conversions room (docs/conversions.md): the app's destinations with their counts
 * (conversion-table.tsx), the form that adds or edits one (conversion-form.tsx) for a caller with
 * `conversions:write`, "send test event" with what the platform answered, and the delivery log of
 * the destination opened, each attempt as it was made. Deliveries happen in the queue after the
 * call: after an action the list and the open log are read again every 1.5 s for a minute.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Language } from '../../../../shared/texts.ts';
import { errorText } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import { ConversionForm } from './conversion-form.tsx';
import { AttemptLog, type DestinationActions, DestinationTable } from './conversion-table.tsx';
import type {
  ConversionAttemptView,
  ConversionsApi,
  ConversionTestResult,
  DestinationCreate,
  DestinationView,
} from './conversions-api.ts';
import { type ConversionsTexts, conversionsTexts } from './conversions-texts.ts';

const WATCH_EVERY_MS = 1_500;
const WATCH_FOR_MS = 60_000;

/** The destinations and the open log, read again after each action for a while. */
function useDestinations(api: ConversionsApi, t: ConversionsTexts, onError: (text: string) => void) {
  const [destinations, setDestinations] = useState<DestinationView[] | null>(null);
  const [open, setOpenState] = useState<DestinationView | null>(null);
  // null until the open destination's log is read: "loading", not "no attempts yet".
  const [attempts, setAttempts] = useState<ConversionAttemptView[] | null>(null);
  // The log shown is the open destination's: an answer for one opened before is dropped, whenever it comes.
  const openId = useRef<string | null>(null);
  const setOpen = useCallback((destination: DestinationView | null) => {
    if (destination?.id !== openId.current) setAttempts(null);
    openId.current = destination?.id ?? null;
    setOpenState(destination);
  }, []);
  const watchUntil = useRef(0);
  const reload = useCallback(() => {
    api.list().then(setDestinations, (failure: unknown) => onError(errorText(failure, t)));
    const id = open?.id;
    if (id)
      api.attempts(id).then(
        (read) => {
          if (openId.current === id) setAttempts(read);
        },
        (failure: unknown) => onError(errorText(failure, t)),
      );
  }, [api, t, onError, open]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new read schedules the next one while watching
  useEffect(() => {
    if (Date.now() > watchUntil.current) return;
    const timer = setTimeout(reload, WATCH_EVERY_MS);
    return () => clearTimeout(timer);
  }, [destinations, attempts, reload]);
  const changed = useCallback(() => {
    watchUntil.current = Date.now() + WATCH_FOR_MS;
    reload();
  }, [reload]);
  useEffect(changed, [changed]);
  return { destinations, open, setOpen, attempts, changed };
}

function TestOutcome({ result, t }: { result: ConversionTestResult; t: ConversionsTexts }) {
  return (
    <p className={result.delivered ? 'test-result ok' : 'test-result failed'} role="status">
      {result.delivered ? t.testDelivered : t.testFailed}
      {` — ${result.status || '—'}, ${result.latencyMs} ms`}
      {result.error ? ` — ${result.error}` : ''}
    </p>
  );
}

/** The room's actions: each runs its call, shows a refusal, and starts watching for what the queue does. */
function useActions(api: ConversionsApi, t: ConversionsTexts, state: ReturnType<typeof useDestinations>) {
  const [error, setError] = useState('');
  const [editing, setEditing] = useState<DestinationView | null>(null);
  const [tested, setTested] = useState<ConversionTestResult | null>(null);
  const act = async (call: () => Promise<unknown>): Promise<boolean> => {
    setError('');
    try {
      await call();
      state.changed();
      return true;
    } catch (failure) {
      setError(errorText(failure, t));
      return false;
    }
  };
  const save = async (body: DestinationCreate) => {
    const { platform, ...change } = body;
    const done = await act(() => (editing ? api.update(editing.id, change) : api.create(body)));
    if (done) setEditing(null);
    return done;
  };
  const actions: DestinationActions = {
    edit: setEditing,
    toggle: (d) => void act(() => api.update(d.id, { enabled: !d.enabled })),
    test: (d) =>
      void act(async () => {
        state.setOpen(d);
        setTested(await api.test(d.id));
      }),
    remove: (d) => void act(() => api.remove(d.id)),
  };
  return { error, setError, editing, setEditing, tested, save, actions };
}

export function ConversionsPanel({
  api,
  zone,
  language,
  editable,
}: {
  api: ConversionsApi;
  zone: string;
  language: Language;
  /** The caller may add, change, test and remove destinations (`conversions:write`). */
  editable: boolean;
}) {
  const t = conversionsTexts(language);
  const [failure, setFailure] = useState('');
  const state = useDestinations(api, t, setFailure);
  const { error, editing, setEditing, tested, save, actions } = useActions(api, t, state);
  const showLog = (destination: DestinationView) => {
    state.setOpen(destination);
    state.changed();
  };
  return (
    <section className="panel wide-panel conversions-panel" aria-labelledby="conversions-heading" id="conversions">
      <h2 id="conversions-heading">{t.heading}</h2>
      <p className="hint">{t.hint}</p>
      {editable ? <h3>{editing ? t.editHeading : t.addHeading}</h3> : null}
      {editable ? <ConversionForm t={t} editing={editing} onSave={save} onCancel={() => setEditing(null)} /> : null}
      <ErrorAlert message={error || failure} />
      {tested ? <TestOutcome result={tested} t={t} /> : null}
      {state.destinations === null ? (
        <p>{t.loading}</p>
      ) : (
        <DestinationTable destinations={state.destinations} actions={editable ? actions : null} onLog={showLog} t={t} />
      )}
      {state.open ? (
        <>
          <h3>{`${t.logOf} ${state.open.name || t.platforms[state.open.platform]}`}</h3>
          {state.attempts === null ? <p>{t.loading}</p> : <AttemptLog attempts={state.attempts} zone={zone} t={t} />}
        </>
      ) : null}
    </section>
  );
}
