/**
 * The loading bar (docs/routes.md, docs/builds.md), driving the `.loading-bar` element of the layout. It shows
 * only for navigations slower than the throttle, creeps towards the end over `duration` (never
 * reaching it), fills on finish, hides after `hideDelay` and rewinds `resetDelay` later. An error
 * finish turns it the error colour. Colour and height live in styles.css (#099D56, 3 px).
 */

export const LOADING_BAR_TIMING = { throttle: 200, duration: 2000, hideDelay: 500, resetDelay: 400 } as const;

export interface LoadingBarTiming {
  throttle: number;
  duration: number;
  hideDelay: number;
  resetDelay: number;
}

export interface LoadingBar {
  /** A navigation started; a bar already running carries on. */
  start(): void;
  /** The navigation ended; `error` when it ended in an error. */
  finish(options?: { error?: boolean }): void;
}

/** Progress (0–100) after `elapsed` ms: fast at first, then ever slower, below 100. */
export function estimatedProgress(duration: number, elapsed: number): number {
  return (200 / Math.PI) * Math.atan((elapsed / duration) * 2);
}

export function loadingBar(element: HTMLElement | null, timing: LoadingBarTiming = LOADING_BAR_TIMING): LoadingBar {
  let active = false;
  let frame = 0;
  let throttleTimer: ReturnType<typeof setTimeout> | undefined;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  let resetTimer: ReturnType<typeof setTimeout> | undefined;

  const draw = (progress: number) => {
    // Scaling (not width) keeps every frame on the compositor.
    if (element) element.style.transform = `scaleX(${progress / 100})`;
  };

  function creep(): void {
    element?.classList.add('is-loading');
    let startedAt: number | undefined;
    const step = (now: number) => {
      startedAt ??= now;
      draw(estimatedProgress(timing.duration, now - startedAt));
      frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
  }

  return {
    start() {
      if (active) return;
      active = true;
      clearTimeout(hideTimer);
      clearTimeout(resetTimer);
      element?.classList.remove('is-error');
      draw(0);
      throttleTimer = setTimeout(creep, timing.throttle);
    },
    finish({ error = false } = {}) {
      if (!active) return;
      active = false;
      clearTimeout(throttleTimer);
      cancelAnimationFrame(frame);
      draw(100);
      if (error) element?.classList.add('is-error');
      hideTimer = setTimeout(() => {
        element?.classList.remove('is-loading');
        resetTimer = setTimeout(() => draw(0), timing.resetDelay);
      }, timing.hideDelay);
    },
  };
}
