/**
 * Browser refinement of the device (docs/device.md), its own chunk loaded after hydration so
 * ua-parser-js and isbot stay out of the initial JavaScript. It runs the same detection as the
 * worker with what only the browser knows — screen size, touch points, orientation support,
 * high-entropy client hints, iPadOS behind a Mac agent, Telegram's injected objects — and puts the
 * result in the learned state in one update; the hand-off keeps the worker's copy for /test.
 */
import { type ClientHints, detectDevice } from '../../shared/device.ts';
import type { LearnedStore } from '../app/store.tsx';
import { readClientHints } from './client-hints.ts';

/** High-entropy hints can stall on some builds; detection does not wait longer than this. */
const HINTS_TIMEOUT_MS = 1000;

/** The page's hints, or none once `HINTS_TIMEOUT_MS` has passed without them. */
function hintsInTime(): Promise<ClientHints> {
  return Promise.race([
    readClientHints(),
    new Promise<ClientHints>((resolve) => setTimeout(() => resolve({}), HINTS_TIMEOUT_MS)),
  ]);
}

/** Refines the learned `deviceInfo` with the browser's own signals. */
export async function refineDevice(learned: LearnedStore): Promise<void> {
  const hints = await hintsInTime();
  const deviceInfo = detectDevice({
    userAgent: navigator.userAgent,
    referrer: document.referrer,
    acceptLanguage: navigator.language,
    hints,
    screen: {
      width: window.screen.width,
      height: window.screen.height,
      touchPoints: navigator.maxTouchPoints,
      orientation: 'orientation' in window.screen || 'onorientationchange' in window,
    },
    telegram: 'TelegramWebview' in window || 'TelegramWebviewProxy' in window,
  });
  learned.update({ deviceInfo });
  // For tests and QA, like `data-hydrated`: the learned state now holds the browser's detection.
  document.documentElement.dataset.deviceRefined = 'true';
}
