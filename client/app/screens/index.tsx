/**
 * `/` — the download page (PRODUCT.md §5.1). It renders the view the worker decided for this device
 * and language, so the button in the server HTML is the one that stays after hydration.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { texts } from '../../../shared/texts.ts';
import { AppDetails, AppSummary } from '../download/app-summary.tsx';
import { PrimaryAction, QrPanel } from '../download/download-actions.tsx';
import { useStore } from '../store.tsx';
import '../download/download.css';

const loadGuide = () => import('../download/open-in-browser-guide.tsx');
const Guide = lazy(loadGuide);

export function Component() {
  const { language, download: view } = useStore();
  const [guideOpen, setGuideOpen] = useState(false);
  // Fetch the guide's chunk once the page is interactive, so a tap shows it at once.
  useEffect(() => {
    if (view.guide) void loadGuide();
  }, [view.guide]);
  const onBlocked = view.guide ? () => setGuideOpen(true) : undefined;
  const pc = view.layout === 'PC';
  return (
    <article className="screen download" data-layout={view.layout}>
      {view.smartBannerAppId ? <meta name="apple-itunes-app" content={`app-id=${view.smartBannerAppId}`} /> : null}
      <div className="download-main">
        <AppSummary view={view} />
        {pc ? null : <PrimaryAction view={view} onBlocked={onBlocked} />}
        <AppDetails view={view} />
      </div>
      {pc ? <QrPanel view={view} onBlocked={onBlocked} /> : null}
      <nav className="links">
        <Link to="/landing">{texts(language).continueToLanding}</Link>
      </nav>
      {guideOpen && view.guide ? (
        <Suspense fallback={null}>
          <Guide guide={view.guide} onClose={() => setGuideOpen(false)} />
        </Suspense>
      ) : null}
    </article>
  );
}
