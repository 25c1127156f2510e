/** Deferred work waits until the visitor has left the page alone (client/browser/idle.ts). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { visitorQuiet } from '../../client/browser/idle.ts';

/** A window and a document stand-in: input events and the page's visibility. */
function sources() {
  const input = new EventTarget();
  const page = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
  const show = (state: DocumentVisibilityState) => {
    page.visibilityState = state;
    page.dispatchEvent(new Event('visibilitychange'));
  };
  return { input, page, show };
}

/** Whether the promise has settled, without waiting for it. */
function tracked(promise: Promise<void>) {
  const state = { done: false };
  void promise.then(() => {
    state.done = true;
  });
  return state;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('visitorQuiet', () => {
  it('resolves once the page has been left alone for the whole quiet time', async () => {
    const { input, page } = sources();
    const quiet = tracked(visitorQuiet(3000, { input, page }));
    await vi.advanceTimersByTimeAsync(2999);
    expect(quiet.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(quiet.done).toBe(true);
  });

  it.each(['pointerdown', 'touchstart', 'keydown', 'wheel', 'scroll'])('starts the wait again on %s', async (type) => {
    const { input, page } = sources();
    const quiet = tracked(visitorQuiet(3000, { input, page }));
    await vi.advanceTimersByTimeAsync(2500);
    input.dispatchEvent(new Event(type));
    await vi.advanceTimersByTimeAsync(2500);
    expect(quiet.done).toBe(false);
    await vi.advanceTimersByTimeAsync(500);
    expect(quiet.done).toBe(true);
  });

  it('does not count time while the page is hidden, and waits the whole time once shown again', async () => {
    const { input, page, show } = sources();
    const quiet = tracked(visitorQuiet(3000, { input, page }));
    await vi.advanceTimersByTimeAsync(1000);
    show('hidden');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(quiet.done).toBe(false);
    show('visible');
    await vi.advanceTimersByTimeAsync(2999);
    expect(quiet.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(quiet.done).toBe(true);
  });

  it('waits for the page to be shown when it starts hidden', async () => {
    const { input, page, show } = sources();
    page.visibilityState = 'hidden';
    const quiet = tracked(visitorQuiet(3000, { input, page }));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(quiet.done).toBe(false);
    show('visible');
    await vi.advanceTimersByTimeAsync(3000);
    expect(quiet.done).toBe(true);
  });

  it('stops listening once resolved: every listener removed with the function and options it was added with', async () => {
    const { input, page } = sources();
    const added = vi.spyOn(input, 'addEventListener');
    const removed = vi.spyOn(input, 'removeEventListener');
    const pageAdded = vi.spyOn(page, 'addEventListener');
    const pageRemoved = vi.spyOn(page, 'removeEventListener');
    await Promise.all([visitorQuiet(100, { input, page }), vi.advanceTimersByTimeAsync(100)]);
    expect(added.mock.calls.map(([type]) => type).sort()).toEqual(
      ['keydown', 'pointerdown', 'scroll', 'touchstart', 'wheel'].sort(),
    );
    expect(removed.mock.calls).toEqual(added.mock.calls);
    expect(pageRemoved.mock.calls).toEqual(pageAdded.mock.calls);
  });
});
