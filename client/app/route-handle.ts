/** What a route of the route table tells the shell and the worker about itself (`handle`). */
import type { Language } from '../../shared/texts.ts';

/**
 * Which page a route is: the worker reads it with the router's own matcher (worker/lib/page-of.ts),
 * so every spelling the router accepts (`/LANDING`, `/landing/`, an escaped letter) is the same page.
 * A path whose deepest route names no page (the catch-all) is `not-found`.
 */
export type Page = 'download' | 'landing' | 'carrier' | 'short' | 'diagnostics' | 'admin' | 'not-found';

export interface RouteHandle {
  page: Page;
  /**
   * The lazily imported screen's source under `client/app/`, without `.tsx` (`landing/landing-page`):
   * the worker names its chunk in the build manifest from it. Short, since the table is in the entry chunk.
   */
  chunk?: string;
  /** The page's own title, put before the app's name. */
  title?: (language: Language) => string;
  /** Keep the page out of search indexes. */
  noindex?: boolean;
}
