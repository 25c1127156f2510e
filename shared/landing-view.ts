/**
 * What the landing screen's one large button is (docs/screens.md), decided on the worker like the
 * download page's, so the browser only renders it: opening the app where a tap can, else the
 * platform's download, else no button.
 */
import type { DownloadButton, GuideView } from './download-view.ts';
import type { OpenAppView } from './open-app-view.ts';

export type LandingButton =
  | { action: 'open-app'; open: OpenAppView }
  /** `guide` is set when this in-app browser blocks downloads: the tap shows it instead. */
  | { action: 'download'; download: DownloadButton; guide: GuideView | null };

export interface LandingView {
  button: LandingButton | null;
  /**
   * On a short link with variants, what the visitor's variant adds to the page
   * (docs/smart-links.md#variants-and-the-sequential-test); its button words are already the button's.
   */
  variant?: { name: string; headline?: string; text?: string; image?: string };
}
