/**
 * `/landing` — the campaign page (docs/screens.md), the download page's sibling: the configured
 * app's identity, who invited and which campaign, then the one large button the worker chose
 * (worker/render/landing-view.ts). Opening the app, it carries the campaign (the fallback timer is
 * client/browser/open-app-taps.ts); any tap copies the carrier link for the app's first launch
 * (client/browser/attribution/click-beacon.ts). A desktop gets this page's QR code, campaign included.
 */
import { lazy, type MouseEvent, Suspense, useState } from 'react';
import type { GuideView } from '../../../shared/download-view.ts';
import { texts } from '../../../shared/texts.ts';
import { AboutApp } from '../download/about-app.tsx';
import { DownloadLink, OpenAppLink, QrImage } from '../download/links.tsx';
import { RouterLink } from '../shell/router-link.tsx';
import { useHandoff } from '../store.tsx';
import { Campaign } from './campaign.tsx';
import './landing.css';

const Guide = lazy(() => import('../download/open-in-browser-guide.tsx'));

export function Component() {
  const { language, campaign, landing, download } = useHandoff();
  const [guide, setGuide] = useState<GuideView | null>(null);
  const t = texts(language);
  const tap = (blocked: GuideView | null) => (event: MouseEvent) => {
    if (!blocked) return;
    event.preventDefault();
    setGuide(blocked);
  };
  const { button } = landing;
  return (
    <article className="screen landing">
      <header className="app-header">
        <img className="app-logo" src={download.logo} alt="" width={96} height={96} />
        <h1>{download.name}</h1>
        <p className="app-tagline">{download.tagline}</p>
      </header>
      <Campaign language={language} campaign={campaign} />
      {button?.action === 'open-app' ? (
        <OpenAppLink open={button.open} className="button button-landing" onClick={tap(button.open.guide)} />
      ) : null}
      {button?.action === 'download' ? (
        <DownloadLink button={button.download} className="button button-landing" onClick={tap(button.guide)} />
      ) : null}
      {download.qr ? (
        <figure className="landing-qr">
          <QrImage qr={download.qr} />
          <figcaption>{download.qr.caption}</figcaption>
        </figure>
      ) : null}
      <nav className="links">
        <RouterLink to="/">{t.backHome}</RouterLink>
      </nav>
      <AboutApp />
      {guide ? (
        <Suspense fallback={null}>
          <Guide guide={guide} onClose={() => setGuide(null)} />
        </Suspense>
      ) : null}
    </article>
  );
}
