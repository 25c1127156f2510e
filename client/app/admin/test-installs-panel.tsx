/**
 * The Test installs panel (docs/operators.md): the installs and opens that test devices made, newest
 * first, each with its answer and why (shared/install-explanation.ts, in the console's language).
 * It asks for new ones every few seconds while the tab is visible, only those after the newest it
 * has (`?after=<id>`), so a developer's tap-then-install shows up within seconds. Above them, the
 * registered test devices (test-devices.tsx) and a look-up of any one install (install-lookup.tsx).
 */
import { useEffect, useRef, useState } from 'react';
import type { Language } from '../../../shared/texts.ts';
import { type AdminApi, errorText, type TestInstallView } from './admin-api.ts';
import type { AdminTexts } from './admin-texts.ts';
import { AnswerLine, WhyList } from './answer-view.tsx';
import { ErrorAlert } from './error-alert.tsx';
import { InstallLookup } from './install-lookup.tsx';
import { TestDevices } from './test-devices.tsx';

/** How often the panel asks for new test answers. */
const POLL_MS = 3000;
/** The most answers the panel keeps on screen. */
const SHOWN = 50;

export function TestInstallsPanel({ api, t, language }: { api: AdminApi; t: AdminTexts; language: Language }) {
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
      <TestDevices api={api} t={t} language={language} />
      <InstallLookup api={api} t={t} language={language} />
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
