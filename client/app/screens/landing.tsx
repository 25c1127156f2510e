/** `/landing` — the campaign page (PRODUCT.md §5.2). */
import { Link } from 'react-router-dom';
import { texts } from '../../../shared/texts.ts';
import { useStore } from '../store.tsx';

export function Component() {
  const { language, queryData } = useStore();
  const t = texts(language);
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
      <nav className="links">
        <Link to="/">{t.backHome}</Link>
      </nav>
    </article>
  );
}
