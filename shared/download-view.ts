/**
 * What the download page shows (docs/screens.md), decided and worded on the worker for the
 * visitor's device and language, and handed to the browser in the client store. The browser only
 * renders it, so no choice logic, string table or QR encoder travels in its bundle.
 */
import type { OperatingSystem } from './device.ts';

/** What a download button installs from. */
export type DownloadKind = 'app-store' | 'apk' | 'appgallery' | 'store' | 'yyb';

export interface DownloadButton {
  kind: DownloadKind;
  href: string;
  label: string;
  /** For an APK: its path on the download domains; the link follows `downloadReachable.url` (docs/config.md). */
  apkPath?: string;
}

/** The class of the QR code's `<img>`: the page carries its image there only (shared/handoff.ts). */
export const QR_CLASS = 'qr-code';

export interface GuideView {
  title: string;
  steps: string[];
  close: string;
}

export interface DownloadView {
  layout: OperatingSystem;
  name: string;
  tagline: string;
  logo: string;
  /** Version, size and update date, labelled. */
  facts: { label: string; value: string }[];
  featuresHeading: string;
  features: string[];
  screenshotsHeading: string;
  screenshots: { src: string; alt: string }[];
  /** The phone's one button; null on a desktop, or where nothing installs (see `note`). */
  primary: DownloadButton | null;
  /** The desktop's store buttons beside the QR code. */
  stores: DownloadButton[];
  /** Said instead of a button when nothing installs on this device. */
  note: string | null;
  /**
   * On a desktop: the QR code of this page's campaign URL (`url`), made on the worker as an image
   * (`src`, one pixel per module) to be shown `size` CSS pixels square.
   */
  qr: { src: string; size: number; heading: string; caption: string; alt: string; url: string } | null;
  /** Present when this in-app browser blocks downloads: tapping a button shows this guide. */
  guide: GuideView | null;
  /** The App Store id for the Smart App Banner (iOS Safari, not in-app), else null. */
  smartBannerAppId: string | null;
}
