/** The app's identity and facts on the download page (docs/screens.md): logo, name, tagline, facts. */
import type { DownloadView } from '../../../shared/download-view.ts';

export function AppSummary({ view }: { view: DownloadView }) {
  return (
    <header className="app-header">
      <img className="app-logo" src={view.logo} alt="" width={96} height={96} />
      <h1>{view.name}</h1>
      <p className="app-tagline">{view.tagline}</p>
      <dl className="app-facts">
        {view.facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}

/** Feature lines and screenshots from the configuration. */
export function AppDetails({ view }: { view: DownloadView }) {
  return (
    <>
      {view.features.length > 0 ? (
        <section className="app-features" aria-labelledby="features-heading">
          <h2 id="features-heading">{view.featuresHeading}</h2>
          <ul>
            {view.features.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {view.screenshots.length > 0 ? (
        <section className="app-screenshots" aria-labelledby="screenshots-heading">
          <h2 id="screenshots-heading">{view.screenshotsHeading}</h2>
          <ul>
            {view.screenshots.map((shot) => (
              <li key={shot.src}>
                <img src={shot.src} alt={shot.alt} width={180} height={390} loading="lazy" />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
