/**
 * Who makes the app and what it is (docs/screens.md#about-the-app), on `/` and `/landing`: the
 * "about this app" block and the footer's filing numbers, as the worker wrote them (escaped markup,
 * so no renderer of theirs weighs on the initial JavaScript), and where the page serves mainland
 * China the APK confirmation, loaded once the page is interactive. Nothing where not configured.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useHandoff } from '../store.tsx';
import './about.css';

const ApkConfirm = lazy(() => import('./apk-confirm.tsx'));

export function AboutApp() {
  const { about, apkConfirm } = useHandoff();
  // The confirmation is the browser's only: the server HTML has no closed dialog to carry.
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  return (
    <>
      {about?.about ? (
        <section
          className="about-app"
          aria-labelledby="about-heading"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the worker wrote it, every text and attribute escaped (worker/render/about-markup.ts)
          dangerouslySetInnerHTML={{ __html: about.about }}
        />
      ) : null}
      {about?.filings ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the worker wrote it, every text and attribute escaped (worker/render/about-markup.ts)
        <footer className="site-filings" dangerouslySetInnerHTML={{ __html: about.filings }} />
      ) : null}
      {apkConfirm && interactive ? (
        <Suspense fallback={null}>
          <ApkConfirm confirm={apkConfirm} />
        </Suspense>
      ) : null}
    </>
  );
}
