/** `/landing` — the campaign page (PRODUCT.md §5.2). */
import { Link } from 'react-router-dom';
import { texts } from '../../../shared/texts.ts';
import { useStore } from '../store.tsx';

export function Component() {
  const { language } = useStore();
  const t = texts(language);
  return (
    <article className="screen landing">
      <header className="app-header">
        <img className="app-logo" src="/logo.png" alt="" width={96} height={96} />
        <h1>{t.landingHeading}</h1>
        <p className="app-name">{t.appName}</p>
      </header>
      <nav className="links">
        <Link to="/">{t.backHome}</Link>
      </nav>
    </article>
  );
}
