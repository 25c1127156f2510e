import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { estimatedProgress, loadingBar } from '../../client/browser/loading-bar.ts';

/** Just what the bar touches of its element: classes and the transform. */
function fakeBar() {
  const classes = new Set<string>();
  const element = {
    style: { transform: '' },
    classList: {
      add: (name: string) => void classes.add(name),
      remove: (name: string) => void classes.delete(name),
      contains: (name: string) => classes.has(name),
    },
  };
  return { element: element as unknown as HTMLElement, classes, style: element.style };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('requestAnimationFrame', (step: (now: number) => void) =>
    setTimeout(() => step(performance.now()), 16),
  );
  vi.stubGlobal('cancelAnimationFrame', (id: ReturnType<typeof setTimeout>) => clearTimeout(id));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the loading bar', () => {
  it('stays hidden when the navigation ends within 200 ms', () => {
    const { element, classes } = fakeBar();
    const bar = loadingBar(element);
    bar.start();
    vi.advanceTimersByTime(199);
    bar.finish();
    vi.advanceTimersByTime(5000);
    expect(classes.has('is-loading')).toBe(false);
  });

  it('shows at 200 ms, creeps forward, fills at the end, hides 500 ms later and rewinds 400 ms after that', () => {
    const { element, classes, style } = fakeBar();
    const bar = loadingBar(element);
    bar.start();
    vi.advanceTimersByTime(199);
    expect(classes.has('is-loading')).toBe(false);
    vi.advanceTimersByTime(1);
    expect(classes.has('is-loading')).toBe(true);
    vi.advanceTimersByTime(1000);
    const midway = Number(/scaleX\(([\d.]+)\)/.exec(style.transform)?.[1]);
    // About half way after half the duration: (200 / π) · atan(1) = 50.
    expect(midway).toBeGreaterThan(0.45);
    expect(midway).toBeLessThan(0.55);

    bar.finish();
    expect(style.transform).toBe('scaleX(1)');
    vi.advanceTimersByTime(499);
    expect(classes.has('is-loading')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(classes.has('is-loading')).toBe(false);
    vi.advanceTimersByTime(399);
    expect(style.transform).toBe('scaleX(1)');
    vi.advanceTimersByTime(1);
    expect(style.transform).toBe('scaleX(0)');
  });

  it('turns the error colour on an error finish, and back for the next navigation', () => {
    const { element, classes } = fakeBar();
    const bar = loadingBar(element);
    bar.start();
    vi.advanceTimersByTime(300);
    bar.finish({ error: true });
    expect(classes.has('is-error')).toBe(true);
    bar.start();
    expect(classes.has('is-error')).toBe(false);
  });

  it('keeps one run going when a navigation starts twice', () => {
    const { element, classes } = fakeBar();
    const bar = loadingBar(element);
    bar.start();
    vi.advanceTimersByTime(150);
    bar.start(); // must not restart the throttle
    vi.advanceTimersByTime(50);
    expect(classes.has('is-loading')).toBe(true);
  });

  it('estimates progress that rises, passes half way at the duration and never reaches 100', () => {
    expect(estimatedProgress(2000, 0)).toBe(0);
    expect(estimatedProgress(2000, 2000)).toBeGreaterThan(50);
    expect(estimatedProgress(2000, 4000)).toBeGreaterThan(estimatedProgress(2000, 2000));
    expect(estimatedProgress(2000, 1e9)).toBeLessThan(100);
  });
});
