/**
 * What the download and landing screens both render (docs/screens.md): the two links and the desktop
 * QR code, the one contract between the open-app link and the browser's tap watcher
 * (client/browser/open-app-taps.ts), and the one way a tap this in-app browser would block is
 * handled ({@link useBlockedTaps}). One module, so both screens share one chunk.
 * An APK link follows the reachable download domain (docs/config.md) as the browser finds it; only
 * the `href` changes, so nothing moves.
 */
import { lazy, type MouseEventHandler, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import { type DownloadButton, type DownloadView, type GuideView, QR_CLASS } from '../../../shared/download-view.ts';
import type { OpenAppView, OpenFallback, OpenMethod } from '../../../shared/open-app-view.ts';
import { useLearned } from '../store.tsx';
import { appOpenedBefore } from './app-opened.ts';

/** Where a download link leads: an APK from the reachable download domain, anything else as decided. */
export function downloadHref(link: { href: string; apkPath?: string }, reachableUrl: string): string {
  return link.apkPath ? `${reachableUrl}${link.apkPath}` : link.href;
}

interface LinkProps {
  className: string;
  onClick?: MouseEventHandler<HTMLAnchorElement>;
}

export function DownloadLink({ button, className, onClick }: LinkProps & { button: DownloadButton }) {
  const { downloadReachable } = useLearned();
  return (
    <a
      className={className}
      href={downloadHref(button, downloadReachable.url)}
      data-kind={button.kind}
      data-apk={button.apkPath}
      onClick={onClick}
    >
      {button.label}
    </a>
  );
}

/** The selector of open-app links, for the tap watcher. */
export const OPEN_APP_LINK = 'a[data-open]';

/**
 * The tap follows the worker's href; the tap watcher reads the method and the fallback from the link.
 * Its words are the server's until hydration, then "Open in <app>" where an earlier tap opened the
 * app (app-opened.ts): the same button, so nothing moves.
 */
export function OpenAppLink({ open, className, onClick }: LinkProps & { open: OpenAppView }) {
  const [opened, setOpened] = useState(false);
  useEffect(() => setOpened(appOpenedBefore()), []);
  return (
    <a
      className={className}
      href={open.href}
      data-open={open.method}
      data-fallback={open.fallback?.href}
      data-apk={open.fallback?.apkPath}
      onClick={onClick}
    >
      {opened && open.installedLabel ? open.installedLabel : open.label}
    </a>
  );
}

/** What an open-app link rendered by `OpenAppLink` says about itself. */
export function readOpenAppLink(link: HTMLAnchorElement): { method: OpenMethod; fallback: OpenFallback | null } {
  const { open, fallback, apk } = link.dataset;
  return {
    method: open as OpenMethod,
    fallback: fallback ? (apk ? { href: fallback, apkPath: apk } : { href: fallback }) : null,
  };
}

/** The desktop QR code: the worker's image, written into the page once (shared/handoff.ts). */
export function QrImage({ qr }: { qr: NonNullable<DownloadView['qr']> }) {
  return <img className={QR_CLASS} src={qr.src} width={qr.size} height={qr.size} alt={qr.alt} data-url={qr.url} />;
}

/*
 * The one way the screens handle a tap this in-app browser would block (docs/screens.md): the link
 * says so before the tap ("Open in browser to download"), and its tap shows the open-in-browser
 * guide instead of following the link. The guide's chunk is fetched once the page is interactive,
 * so a tap shows it at once. The tap watchers (client/browser/open-app-taps.ts,
 * client/browser/attribution/click-beacon.ts) read such a tap as prevented.
 */
const loadGuide = () => import('./open-in-browser-guide.tsx');
const Guide = lazy(loadGuide);

export interface BlockedTaps {
  /** The click handler of a link whose tap shows `guide` instead; none where the link works here. */
  onTap(guide: GuideView | null | undefined): MouseEventHandler<HTMLAnchorElement> | undefined;
  /** The guide a tap showed, for the screen to place; null until then. */
  shown: ReactNode;
}

/** Blocked taps for a screen that has some (`any`): the guide's chunk is fetched ahead of the tap. */
export function useBlockedTaps(any: boolean): BlockedTaps {
  const [guide, setGuide] = useState<GuideView | null>(null);
  useEffect(() => {
    if (any) void loadGuide();
  }, [any]);
  const close = useCallback(() => setGuide(null), []);
  return {
    onTap: (blocked) =>
      blocked
        ? (event) => {
            event.preventDefault();
            setGuide(blocked);
          }
        : undefined,
    shown: guide ? (
      <Suspense fallback={null}>
        <Guide guide={guide} onClose={close} />
      </Suspense>
    ) : null,
  };
}
