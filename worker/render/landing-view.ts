/**
 * The landing screen's button for one request (docs/screens.md), worded for a visitor who may not
 * have the app: the app link where one tap opens it or, without it, ends at the store ("Get <app>",
 * "Open in <app>" once the page believes it installed); the download where the app link cannot
 * (worded "Open in browser to download" where this in-app browser blocks it, its guide on the tap).
 */
import type { DownloadView } from '../../shared/download-view.ts';
import type { LandingView } from '../../shared/landing-view.ts';
import type { OpenAppView } from '../../shared/open-app-view.ts';
import type { Language } from '../../shared/texts.ts';
import { downloadTexts, withApp } from './download-texts.ts';

export function landingView(download: DownloadView, openApp: OpenAppView | null, language: Language): LandingView {
  const t = downloadTexts(language);
  const openIn = withApp(t.openInApp, download.name);
  const opens = openApp && openApp.method !== 'guide' ? openApp : null;
  if (opens?.fallback) {
    const open = { ...opens, label: withApp(t.getApp, download.name), installedLabel: openIn };
    return { button: { action: 'open-app', open } };
  }
  // The download's own words: the store's name, or the step that works in this in-app browser.
  if (download.primary) return { button: { action: 'download', download: download.primary, guide: download.guide } };
  // Nothing installs here: the tap can only open the app, or say how to.
  if (opens) return { button: { action: 'open-app', open: { ...opens, label: openIn } } };
  if (openApp) return { button: { action: 'open-app', open: { ...openApp, label: t.openInBrowserToOpen } } };
  return { button: null };
}
