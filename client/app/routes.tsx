/**
 * The one route table (docs/routes.md), imported by the worker for server rendering and by the
 * browser for hydration. Each screen is a lazy route, so each is its own chunk in the client build.
 * `handle.chunk` names the screen's source file so the worker can preload its chunk.
 */
import { data, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { texts } from '../../shared/texts.ts';
import { diagnosticsAllowed } from './route-context.ts';
import type { RouteHandle } from './route-handle.ts';
import { RouteErrorPage } from './shell/error-page.tsx';
import { Layout } from './shell/layout.tsx';

/** The not-found error of docs/routes.md: status 404, message `Page not found: ` + path and query. */
export function notFound(request: Request): never {
  const url = new URL(request.url);
  throw data({ message: `Page not found: ${url.pathname}${url.search}` }, { status: 404 });
}

/** Route-level validation for `/test`: only where the `DIAGNOSTICS` variable is on. */
function requireDiagnostics({ request, context }: LoaderFunctionArgs): null {
  if (!diagnosticsAllowed(context)) notFound(request);
  return null;
}

/** The campaign screen, shown by three routes, each its own page (route-handle.ts). */
function landing(page: 'landing' | 'carrier' | 'short') {
  return {
    lazy: () => import('./landing/landing-page.tsx'),
    handle: { page, chunk: 'landing/landing-page', title: (l) => texts(l).landingHeading } satisfies RouteHandle,
  };
}

export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    element: <Layout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        id: 'index',
        index: true,
        lazy: () => import('./download/download-page.tsx'),
        handle: { page: 'download', chunk: 'download/download-page' } satisfies RouteHandle,
      },
      { id: 'landing', path: 'landing', ...landing('landing') },
      // A carrier link pasted into a browser (docs/attribution.md): the same screen, its campaign from the carrier.
      { id: 'carrier', path: 'i/:carrier', ...landing('carrier') },
      // A short link (docs/operators.md): the same screen, its campaign from the stored link.
      { id: 'short', path: 's/:slug', ...landing('short') },
      {
        id: 'test',
        path: 'test',
        loader: requireDiagnostics,
        lazy: () => import('./diagnostics/diagnostics-page.tsx'),
        handle: {
          page: 'diagnostics',
          chunk: 'diagnostics/diagnostics-page',
          title: (l) => texts(l).testHeading,
          noindex: true,
        } satisfies RouteHandle,
      },
      // The operators' console (docs/operators.md). A bare handle: every byte here is in the visitors' entry
      // chunk, so the worker marks it noindex and the screen links its own stylesheet (docs/routes.md).
      // `#admin-page` is the console in the browser and its sign-in frame on the worker (admin-shell.tsx).
      {
        id: 'admin',
        path: 'admin',
        lazy: () => import('#admin-page'),
        handle: { page: 'admin' } satisfies RouteHandle,
      },
      // No page of its own: the worker reads a path it matches as not found (worker/lib/page-of.ts).
      { id: 'not-found', path: '*', loader: ({ request }) => notFound(request) },
    ],
  },
];
