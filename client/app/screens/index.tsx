/** `/` — the download page (PRODUCT.md §5.1). */
import { Link } from 'react-router-dom';
import { texts } from '../../../shared/texts.ts';
import { useStore } from '../store.tsx';

export function Component() {
  const { language } = useStore();
  const t = texts(language);
  return (
    <article className="screen download">
      <header className="app-header">
        <img className="app-logo" src="/logo.png" alt="" width={96} height={96} />
        <h1>{t.appName}</h1>
      </header>
      <section className="download-section" aria-labelledby="download-heading">
        <h2 id="download-heading">{t.downloadHeading}</h2>
      </section>
      <nav className="links">
        <Link to="/landing">{t.continueToLanding}</Link>
      </nav>
    </article>
  );
}
