/**
 * The one way to put off work the visible page does not need (docs/builds.md, docs/identity.md):
 * - `whenIdle`: once the page has loaded and the main thread is idle, so the work never competes
 *   with the first paint or hydration (identity, the download-domain probe);
 * - `visitorQuiet`: besides, once the visitor has left the page alone for `quietMs` — no pointer,
 *   touch, key, wheel or scroll input while the page is visible. Work that holds the main thread in
 *   long tasks (FingerprintJS's WebGL, font and canvas probes) waits for this, so it never delays
 *   the answer to a tap on the download or open button (docs/benchmarks.md, Lighthouse).
 */

/** Resolves once the page has loaded and the browser is idle. */
export function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    // Safari has no requestIdleCallback before 18; a timeout still yields to pending rendering.
    const idle = () =>
      'requestIdleCallback' in window
        ? requestIdleCallback(() => resolve(), { timeout: 2000 })
        : setTimeout(resolve, 1);
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  });
}

export const QUIET_MS = 3000;

const INPUT_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'wheel', 'scroll'] as const;
const LISTEN = { capture: true, passive: true } as const;

/** Where input and visibility are observed: `window` and `document` in the browser. */
export interface QuietSources {
  input: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  page: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
}

export function visitorQuiet(
  quietMs = QUIET_MS,
  { input, page }: QuietSources = { input: window, page: document },
): Promise<void> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      for (const type of INPUT_EVENTS) input.removeEventListener(type, restart, LISTEN);
      page.removeEventListener('visibilitychange', restart);
      resolve();
    };
    // Every input starts the wait again; a hidden page waits until it is shown again.
    function restart() {
      clearTimeout(timer);
      timer = page.visibilityState === 'hidden' ? undefined : setTimeout(done, quietMs);
    }
    for (const type of INPUT_EVENTS) input.addEventListener(type, restart, LISTEN);
    page.addEventListener('visibilitychange', restart);
    restart();
  });
}
