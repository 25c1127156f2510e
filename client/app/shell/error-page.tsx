/**
 * The error screens (docs/routes.md): 404 `Page Not Found` and every other status
 * `Internal Server Error` (default 500), with code, status message, description and a link home.
 */
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { pageMeta } from '../../../shared/page-meta.ts';
import { texts } from '../../../shared/texts.ts';
import { useHandoff } from '../store.tsx';
import { Head } from './head.tsx';

export interface ErrorInfo {
  status: number;
  description?: string;
}

/** Status and visitor-facing description of whatever a route threw. */
export function describeRouteError(error: unknown): ErrorInfo {
  if (isRouteErrorResponse(error)) {
    const message =
      typeof error.data === 'object' && error.data !== null && 'message' in error.data
        ? String(error.data.message)
        : undefined;
    return { status: error.status, description: message };
  }
  return { status: 500 };
}

export function ErrorScreen({ status, description }: ErrorInfo) {
  const { language, origin, base, site } = useHandoff();
  const t = texts(language);
  const notFound = status === 404;
  const title = notFound ? t.notFoundTitle : t.serverErrorTitle;
  return (
    <main className="error-page">
      <Head meta={pageMeta({ language, origin, pathname: `${base}/`, pageTitle: title, noindex: true, site })} />
      <p className="error-code">{status}</p>
      <h1>{title}</h1>
      <p className="error-description">
        {notFound ? (description ?? t.notFoundDescription) : t.serverErrorDescription}
      </p>
      <a className="button" href={`${base}/`}>
        {t.backHome}
      </a>
    </main>
  );
}

export function RouteErrorPage() {
  return <ErrorScreen {...describeRouteError(useRouteError())} />;
}
