/**
 * `/landing` — the campaign page (docs/screens.md): who invited and which campaign, then one large
 * button. On a phone it opens the app with the query data (the worker's href; the fallback timer is
 * client/browser/open-app-taps.ts) and copies the campaign token for the app's first launch; without
 * a URL scheme it is the platform's download. A desktop gets this page's QR code, campaign included.
 */
import { lazy, type MouseEvent, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { type GuideView, QR_CLASS } from '../../../shared/download-view.ts';
import { texts } from '../../../shared/texts.ts';
import { useStore } from '../store.tsx';
import './landing.css';

const Guide = lazy(() => import('../download/open-in-browser-guide.tsx'));

/** The tap's user activation lets the page write the clipboard; where it may not, nothing is said. */
function copyToken(token: string | undefined): void {
  if (!token || !navigator.clipboard) return;
  navigator.clipboard.writeText(token).catch(() => {});
}

export function Component() {
  const { language, queryData, openApp: open, download, downloadReachable, campaignToken } = useStore();
  const [guide, setGuide] = useState<GuideView | null>(null);
  const t = texts(language);
  const tap = (blocked: GuideView | null) => (event: MouseEvent) => {
    copyToken(campaignToken);
    if (!blocked) return;
    event.preventDefault();
    setGuide(blocked);
  };
  const primary = download.primary;
  let button = null;
  if (open) {
    button = (
      <a
        className="button button-landing"
        href={open.href}
        data-open={open.method}
        data-fallback={open.fallback?.href}
        data-apk={open.fallback?.apkPath}
        onClick={tap(open.guide)}
      >
        {open.label}
      </a>
    );
  } else if (primary) {
    button = (
      <a
        className="button button-landing"
        href={primary.apkPath ? `${downloadReachable.url}${primary.apkPath}` : primary.href}
        data-kind={primary.kind}
        onClick={tap(download.guide)}
      >
        {primary.label}
      </a>
    );
  }
  return (
    <article className="screen landing">
      <header className="app-header">
        <img className="app-logo" src="/logo.png" alt="" width={96} height={96} />
        <h1>{t.landingHeading}</h1>
        <p className="app-name">{t.appName}</p>
      </header>
      {queryData.inviter || queryData.channel ? (
        <section className="campaign" aria-label={t.campaign}>
          {queryData.inviter ? (
            <p className="campaign-inviter">
              {t.invitedBy} <strong>{queryData.inviter}</strong>
            </p>
          ) : null}
          {queryData.channel ? (
            <p className="campaign-channel">
              {t.campaign}: {queryData.channel}
            </p>
          ) : null}
        </section>
      ) : null}
      {button}
      {download.qr ? (
        <figure className="landing-qr">
          <img
            className={QR_CLASS}
            src={download.qr.src}
            width={download.qr.size}
            height={download.qr.size}
            alt={download.qr.alt}
            data-url={download.qr.url}
          />
          <figcaption>{download.qr.caption}</figcaption>
        </figure>
      ) : null}
      <nav className="links">
        <Link to="/">{t.backHome}</Link>
      </nav>
      {guide ? (
        <Suspense fallback={null}>
          <Guide guide={guide} onClose={() => setGuide(null)} />
        </Suspense>
      ) : null}
    </article>
  );
}
