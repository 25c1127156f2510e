/** The landing screen's button for one request (docs/screens.md): the app where it opens, else the download. */
import type { DownloadView } from '../../shared/download-view.ts';
import type { LandingView } from '../../shared/landing-view.ts';
import type { OpenAppView } from '../../shared/open-app-view.ts';

export function landingView(download: DownloadView, openApp: OpenAppView | null): LandingView {
  if (openApp) return { button: { action: 'open-app', open: openApp } };
  if (download.primary) return { button: { action: 'download', download: download.primary, guide: download.guide } };
  return { button: null };
}
