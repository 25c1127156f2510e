/**
 * Runs work the first paint and hydration do not need (identity, debugging tools) once the page
 * has loaded and the main thread is idle, so it never competes with the visible page.
 */
export function afterLoad(task: () => Promise<unknown>): void {
  const run = () => {
    task().catch((error: unknown) => console.warn('Deferred task failed', error));
  };
  // Safari has no requestIdleCallback before 18; a timeout still yields to pending rendering.
  const whenIdle = () =>
    'requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 1);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
