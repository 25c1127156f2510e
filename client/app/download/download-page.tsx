/**
 * `/` — the download page (docs/screens.md). It renders the view the worker decided for this device
 * and language, so the button in the server HTML is the one that stays after hydration.
 */
import { useHandoff } from '../store.tsx';
import { AppDetails, AppSummary } from './app-summary.tsx';
import { PrimaryAction, QrPanel } from './download-actions.tsx';
import { OpenAppLink, useBlockedTaps } from './links.tsx';

export function Component() {
  const { download: view, openApp: open } = useHandoff();
  const taps = useBlockedTaps(Boolean(view.guide ?? open?.guide));
  const onBlocked = taps.onTap(view.guide);
  const pc = view.layout === 'PC';
  return (
    <article className="screen download" data-layout={view.layout}>
      {view.smartBannerAppId ? <meta name="apple-itunes-app" content={`app-id=${view.smartBannerAppId}`} /> : null}
      <div className="download-main">
        <AppSummary view={view} />
        {pc ? null : <PrimaryAction view={view} onBlocked={onBlocked} />}
        {open ? <OpenAppLink open={open} className="button button-open" onClick={taps.onTap(open.guide)} /> : null}
        <AppDetails view={view} />
      </div>
      {pc ? <QrPanel view={view} onBlocked={onBlocked} /> : null}
      {taps.shown}
    </article>
  );
}
