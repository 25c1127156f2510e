/**
 * The landing screen's button for one request (docs/screens.md), worded for a visitor who may not
 * have the app: the app link where one tap opens it or, without it, ends at the store ("Get <app>",
 * "Open in <app>" once the page believes it installed); the download where the app link cannot
 * (worded "Open in browser to download" where this in-app browser blocks it, its guide on the tap).
 */

import type { AttributionView } from '../../shared/attribution.ts';
import type { DownloadView } from '../../shared/download-view.ts';
import type { LandingView } from '../../shared/landing-view.ts';
import type { OpenAppView } from '../../shared/open-app-view.ts';
import type { Language } from '../../shared/texts.ts';
import type { ShownVariant } from '../../shared/variants.ts';
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

/**
 * `view` with what the link's variant shows (`variant`: its JSON, handoff.ts), when the page has one
 * (docs/smart-links.md#variants-and-the-sequential-test): its headline, text and image, and its
 * words on the one large button.
 */
export function withVariant(view: LandingView, variant: string | null): LandingView {
  if (!variant) return view;
  const { name, headline, text, image, button: words } = JSON.parse(variant) as ShownVariant;
  const shown = { name, ...(headline && { headline }), ...(text && { text }), ...(image && { image }) };
  const { button } = view;
  if (!words || !button) return { button, variant: shown };
  if (button.action === 'download')
    return { button: { ...button, download: { ...button.download, label: words } }, variant: shown };
  return { button: { ...button, open: { ...button.open, label: words } }, variant: shown };
}

/** `view` with the name of the page's variant (`variant`, its JSON) for every tap to report. */
export function withArm(view: AttributionView, variant: string | null): AttributionView {
  return variant ? { ...view, variant: (JSON.parse(variant) as ShownVariant).name } : view;
}
