/**
 * An answer that comes late (docs/sdk.md): an `offline` install is asked again in the same session —
 * at once when the platform says the network is back, else after a backoff (5 s doubling to 5 min) —
 * one attempt at a time, inside the 24-hour window, with the same body and install id (install.ts);
 * and the deferred link is told to each listener once, whenever it arrives.
 */
import { RETRY_WINDOW_MS } from './install.ts';
import type { InstallState } from './store.ts';
import type { Answer, Clock, DeferredLink } from './types.ts';

export const RETRY_FIRST_MS = 5000;
export const RETRY_MAX_MS = 300_000;

/** Hears a link, or null once the install's answer is final without one. */
type Ear = (link: DeferredLink | null) => void;

export interface LateContext {
  clock: Clock;
  state(): Promise<InstallState>;
  pending(): Promise<DeferredLink | null>;
  /** One install attempt (install.ts). */
  attempt(): Promise<Answer>;
  /** The platform's "the network is back" hook, when it has one. */
  online?(run: () => void): unknown;
}

export function lateAnswers({ clock, state, pending, attempt: ask, online }: LateContext) {
  const ears = new Set<Ear>();
  let current: Promise<Answer> | null = null;
  let timer: unknown = null;
  let backoff = 0;
  /** This session's install answer is final (or past its window): no link is coming unless one is pending. */
  let over = false;

  const attempt = (): Promise<Answer> => {
    clock.clearTimeout(timer);
    timer = null;
    current = ask().then(async (answer) => {
      const s = await state();
      backoff = Math.min(backoff * 2 || RETRY_FIRST_MS, RETRY_MAX_MS);
      // Only an "offline" answer is not final; past the window it is, and listeners hear the outcome.
      if (!s.final && clock.now() + backoff < (s.startedAt ?? 0) + RETRY_WINDOW_MS)
        timer = clock.setTimeout(attempt, backoff);
      else {
        over = true;
        for (const ear of ears) ear(await pending());
      }
      return answer;
    });
    return current;
  };
  online?.(() => timer !== null && attempt());

  /** Tells `hear` each link once (the pending one first), and null once none is coming. */
  const onLink = (hear: Ear) => {
    const heard = new Set<unknown>();
    const ear: Ear = (link) => {
      try {
        if (heard.has(link?.clickId)) return;
        heard.add(link?.clickId);
        hear(link);
      } catch {
        // A listener's failure is the app's own.
      }
    };
    ears.add(ear);
    pending().then((link) => (link || over) && ears.has(ear) && ear(link));
    return () => void ears.delete(ear);
  };

  return {
    install: () => (current ??= attempt()),
    onLink: (hear: (link: DeferredLink) => void) => onLink((link) => link && hear(link)),
    link: (ms: number) =>
      new Promise<DeferredLink | null>((resolve) => {
        const end: Ear = (link) => {
          off();
          clock.clearTimeout(wait);
          resolve(link);
        };
        const off = onLink(end);
        const wait = clock.setTimeout(() => end(null), ms);
      }),
  };
}
