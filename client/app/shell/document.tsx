/**
 * The HTML document, rendered by the worker and hydrated as a whole by the browser.
 * Head tags that depend on the route (title, description, canonical, Open Graph) are rendered by
 * the layout and hoisted by React into <head>.
 */
import type { ReactNode } from 'react';
import { useHandoff, useLearned } from '../store.tsx';

export function Document({ children }: { children: ReactNode }) {
  const { language } = useHandoff();
  // The browser's refined device once it knows it (docs/device.md): CSS may follow it.
  const { deviceInfo } = useLearned();
  return (
    <html lang={language} data-os={deviceInfo.operatingSystem} data-in-app={deviceInfo.inApp?.name ?? ''}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="referrer" content="no-referrer" />
        <meta name="theme-color" content="#099D56" />
        <link rel="icon" href="/logo.png" type="image/png" />
        <link rel="apple-touch-icon" href="/logo.png" />
      </head>
      <body>
        {/* Outside the routes, so a navigation error can still turn it the error colour (docs/builds.md). */}
        <div className="loading-bar" role="progressbar" aria-hidden="true" />
        {children}
      </body>
    </html>
  );
}
