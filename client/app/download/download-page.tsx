/**
 * `/` — the download page (docs/screens.md). It renders the view the worker decided for this device
 * and language, so the button in the server HTML is the one that stays after hydration.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import type { GuideView } from '../../../shared/download-view.ts';
import { useHandoff } from '../store.tsx';
import { AboutApp } from './about-app.tsx';
import { AppDetails, AppSummary } from './app-summary.tsx';
import { PrimaryAction, QrPanel } from './download-actions.tsx';
import { OpenAppLink } from './links.tsx';
import './download.css';

const loadGuide = () => import('./open-in-browser-guide.tsx');
const Guide = lazy(loadGuide);

export function Component() {
  const { download: view, openApp: open } = useHandoff();
  const [guide, setGuide] = useState<GuideView | null>(null);
  const blockedGuide = view.guide ?? open?.guide;
  // Fetch the guide's chunk once the page is interactive, so a tap shows it at once.
  useEffect(() => {
    if (blockedGuide) void loadGuide();
  }, [blockedGuide]);
  const onBlocked = view.guide ? () => setGuide(view.guide) : undefined;
  const pc = view.layout === 'PC';
  return (
    <article className="screen download" data-layout={view.layout}>
      {view.smartBannerAppId ? <meta name="apple-itunes-app" content={`app-id=${view.smartBannerAppId}`} /> : null}
      <div className="download-main">
        <AppSummary view={view} />
        {pc ? null : <PrimaryAction view={view} onBlocked={onBlocked} />}
        {open ? (
          <OpenAppLink
            open={open}
            className="button button-open"
            onClick={(event) => {
              if (!open.guide) return;
              event.preventDefault();
              setGuide(open.guide);
            }}
          />
        ) : null}
        <AppDetails view={view} />
        <AboutApp />
      </div>
      {pc ? <QrPanel view={view} onBlocked={onBlocked} /> : null}
      {guide ? (
        <Suspense fallback={null}>
          <Guide guide={guide} onClose={() => setGuide(null)} />
        </Suspense>
      ) : null}
    </article>
  );
}
