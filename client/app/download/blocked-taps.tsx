/**
 * The one way the screens handle a tap this in-app browser would block (docs/screens.md): the link
 * says so before the tap ("Open in browser to download"), and its tap shows the open-in-browser
 * guide instead of following the link. The guide's chunk is fetched once the page is interactive,
 * so a tap shows it at once. The tap watchers (client/browser/open-app-taps.ts,
 * client/browser/attribution/click-beacon.ts) read such a tap as prevented.
 */
import { lazy, type MouseEventHandler, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import type { GuideView } from '../../../shared/download-view.ts';

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
