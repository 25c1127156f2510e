/**
 * The one route table (PRODUCT.md §2), imported by the worker for server rendering and by the
 * browser for hydration. Each screen is a lazy route, so each is its own chunk in the client build.
 * `handle.chunk` names the screen's source file so the worker can preload its chunk.
 */
import { data, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import type { Language } from '../../shared/handoff.ts';
import { texts } from '../../shared/texts.ts';
import { RouteErrorPage } from './error-page.tsx';
import { Layout } from './layout.tsx';
import { diagnosticsAllowed } from './route-context.ts';

export interface RouteHandle {
  /** Source path of the lazily imported screen, as the client build manifest names it. */
  chunk?: string;
  /** The page's own title, put before the app's name. */
  title?: (language: Language) => string;
  /** Keep the page out of search indexes. */
  noindex?: boolean;
}

/** The not-found error of PRODUCT.md §2: status 404, message `Page not found: ` + path and query. */
export function notFound(request: Request): never {
  const url = new URL(request.url);
  throw data({ message: `Page not found: ${url.pathname}${url.search}` }, { status: 404 });
}

/** Route-level validation for `/test`: only where the `DIAGNOSTICS` variable is on. */
function requireDiagnostics({ request, context }: LoaderFunctionArgs): null {
  if (!diagnosticsAllowed(context)) notFound(request);
  return null;
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
        lazy: () => import('./screens/index.tsx'),
        handle: { chunk: 'client/app/screens/index.tsx' } satisfies RouteHandle,
      },
      {
        id: 'landing',
        path: 'landing',
        lazy: () => import('./screens/landing.tsx'),
        handle: {
          chunk: 'client/app/screens/landing.tsx',
          title: (l) => texts(l).landingHeading,
        } satisfies RouteHandle,
      },
      {
        id: 'test',
        path: 'test',
        loader: requireDiagnostics,
        lazy: () => import('./screens/test.tsx'),
        handle: {
          chunk: 'client/app/screens/test.tsx',
          title: (l) => texts(l).testHeading,
          noindex: true,
        } satisfies RouteHandle,
      },
      { id: 'not-found', path: '*', loader: ({ request }) => notFound(request) },
    ],
  },
];
