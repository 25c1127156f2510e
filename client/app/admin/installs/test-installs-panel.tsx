/**
 * The Test installs panel (docs/operators.md): the installs and opens that test devices made, newest
 * first, each with its answer and why (shared/install-explanation.ts, in the console's language).
 * It asks for new ones every few seconds while the tab is visible, only those after the newest it
 * has (`?after=<id>`), so a developer's tap-then-install shows up within seconds. Above them, the
 * registered test devices (the test devices room's form, handed in by the dashboard) and a look-up of
 * any one install (install-lookup.tsx).
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { Language } from '../../../../shared/texts.ts';
import { errorText } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import { AnswerLine, WhyList } from './answer-view.tsx';
import { type FlagsView, InstallLookup } from './install-lookup.tsx';
import type { InstallsApi, TestInstallView } from './installs-api.ts';
import type { InstallsTexts } from './installs-texts.ts';

/** How often the panel asks for new test answers. */
const POLL_MS = 3000;
/** The most answers the panel keeps on screen. */
const SHOWN = 50;

export function TestInstallsPanel({
  api,
  t,
  language,
  devices,
  flags,
}: {
  api: InstallsApi;
  t: InstallsTexts;
  language: Language;
  /** The registered test devices, shown above the answers. */
  devices: ReactNode;
  /** How an install's fraud flags are shown in the look-up. */
  flags: FlagsView;
}) {
  const [items, setItems] = useState<TestInstallView[] | null>(null);
  const [error, setError] = useState('');
  const newest = useRef(0);

  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      if (document.visibilityState === 'hidden' && newest.current > 0) return;
      try {
        const fresh = await api.testInstalls(newest.current || undefined);
        if (stopped) return;
        setError('');
        if (fresh.length > 0) newest.current = Math.max(newest.current, ...fresh.map((item) => item.id));
        setItems((shown) => [...fresh, ...(shown ?? [])].slice(0, SHOWN));
      } catch (failure) {
        if (!stopped) setError(errorText(failure, t));
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [api, t]);

  return (
    <section className="panel test-installs" aria-labelledby="test-installs-heading">
      <h2 id="test-installs-heading">{t.testInstalls}</h2>
      <p className="hint">{t.testInstallsHint}</p>
      {devices}
      <InstallLookup api={api} t={t} language={language} flags={flags} />
      <ErrorAlert message={error} />
      {items === null ? <p>{t.loading}</p> : null}
      {items?.length === 0 ? <p className="empty">{t.noTestInstalls}</p> : null}
      <ol className="test-list">
        {(items ?? []).map((item) => (
          <li key={item.id} data-test-install={item.id} data-matched={String(item.answer.matched)}>
            <div className="test-head">
              <time dateTime={item.at}>{item.at.slice(0, 19).replace('T', ' ')}</time>
              <span>
                {item.kind === 'open' ? t.kindOpen : t.kindInstall} · {item.app}
                {item.platform ? ` · ${item.platform}` : ''}
              </span>
              <span className="device" title={t.deviceHint}>
                {t.device} {item.device.slice(0, 8)}
              </span>
              {item.repeat ? <span className="repeat">{t.repeat}</span> : null}
            </div>
            <AnswerLine answer={item.answer} t={t} />
            <WhyList explain={item.explain} language={language} />
          </li>
        ))}
      </ol>
    </section>
  );
}
