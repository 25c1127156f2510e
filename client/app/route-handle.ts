/** What a route of the route table tells the shell and the worker about itself (`handle`). */
import type { Language } from '../../shared/texts.ts';

export interface RouteHandle {
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
