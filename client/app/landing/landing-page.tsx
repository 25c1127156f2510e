/**
 * `/landing` — the campaign page (docs/screens.md), the download page's sibling: the configured
 * app's identity, who invited and which campaign, then the one large button the worker chose
 * (worker/render/landing-view.ts). Opening the app, it carries the campaign (the fallback timer is
 * client/browser/open-app-taps.ts); any tap copies the carrier link for the app's first launch
 * (client/browser/attribution/click-beacon.ts). A desktop gets this page's QR code, campaign included.
 */
import { texts } from '../../../shared/texts.ts';
import { DownloadLink, OpenAppLink, QrImage, useBlockedTaps } from '../download/links.tsx';
import { RouterLink } from '../shell/router-link.tsx';
import { useHandoff } from '../store.tsx';
import { Campaign } from './campaign.tsx';

export function Component() {
  const { language, campaign, landing, download } = useHandoff();
  const t = texts(language);
  const { button, variant } = landing;
  const blocked = button?.action === 'open-app' ? button.open.guide : (button?.guide ?? null);
  const taps = useBlockedTaps(blocked !== null);
  return (
    <article className="screen landing">
      <header className="app-header">
        <img className="app-logo" src={download.logo} alt="" width={96} height={96} />
        <h1>{download.name}</h1>
        <p className="app-tagline">{download.tagline}</p>
      </header>
      {variant ? (
        <section className="variant" data-variant={variant.name}>
          {variant.image ? <img className="variant-image" src={variant.image} alt="" /> : null}
          {variant.headline ? <h2>{variant.headline}</h2> : null}
          {variant.text ? <p>{variant.text}</p> : null}
        </section>
      ) : null}
      <Campaign language={language} campaign={campaign} />
      {button?.action === 'open-app' ? (
        <OpenAppLink open={button.open} className="button button-landing" onClick={taps.onTap(blocked)} />
      ) : null}
      {button?.action === 'download' ? (
        <DownloadLink button={button.download} className="button button-landing" onClick={taps.onTap(blocked)} />
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
      {taps.shown}
    </article>
  );
}
