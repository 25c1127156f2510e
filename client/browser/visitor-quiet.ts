/**
 * Resolves once the visitor has left the page alone for `quietMs`: no pointer, touch, key, wheel or
 * scroll input while the page is visible. Work that nothing on screen waits for and that holds the
 * main thread in long tasks (FingerprintJS's WebGL, font and canvas probes) waits for this, so it
 * never delays the answer to a tap on the download or open button (docs/benchmarks.md, Lighthouse).
 */
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
