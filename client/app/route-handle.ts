/** What a route of the route table tells the shell and the worker about itself (`handle`). */
import type { Language } from '../../shared/texts.ts';

export interface RouteHandle {
  /** Source path of the lazily imported screen, as the client build manifest names it. */
  chunk?: string;
  /** The page's own title, put before the app's name. */
  title?: (language: Language) => string;
  /** Keep the page out of search indexes. */
  noindex?: boolean;
}
