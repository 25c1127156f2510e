/**
 * `createLander(options)`: the app's calls (docs/sdk.md). Every call answers; none throws into
 * the app: a failure is logged (with `debug`) and becomes "offline", null or nothing.
 */
import { OFFLINE, REJECTED, readAnswer } from './answer.ts';
import { hostOf, openCarrier } from './carriers.ts';
import { createEventQueue } from './events.ts';
import { postJson } from './http.ts';
import { runInstall, withConsent } from './install.ts';
import { createInvite } from './invite.ts';
import { lateAnswers } from './late.ts';
import { createStore, type InstallState, newId } from './store.ts';
import type { Answer, Clock, DeferredLink, InviteLink, InviteOptions, LanderOptions, TrackProps } from './types.ts';

export interface Lander {
  /** The install's attribution: asked once per installation, then the stored answer. */
  install(): Promise<Answer>;
  /** The install id (a random UUID kept on the device): the app's backend joins webhooks by it (docs/webhooks.md). */
  installId(): Promise<string>;
  /** Calls `listener` with each deferred link (the pending one at once), once each; returns the unsubscribe. */
  onLink(listener: (link: DeferredLink) => void): () => void;
  /** The deferred link, waiting up to `timeoutMs` (default: the budget) for one; null when none comes. */
  link(options?: { timeoutMs?: number }): Promise<DeferredLink | null>;
  /** The deferred link of a matched install, across restarts, until `consumeLink()`. */
  pendingLink(): Promise<DeferredLink | null>;
  /** Ends the deferred link and returns it (null when there is none). */
  consumeLink(): Promise<DeferredLink | null>;
  /** The app was opened by `url` (an App Link / Universal Link): counted and answered with its campaign. */
  open(url: string): Promise<Answer>;
  /** Queues an app event (docs/operators.md), e.g. `track('register')`, `track('purchase', { value: 9.99 })`. */
  track(name: string, props?: TrackProps): void;
  /** Sends queued events now (e.g. when the app goes to the background). */
  flush(): Promise<void>;
  /** The person's consent (e.g. after the ATT prompt), sent with the install and every open and event after it (docs/privacy.md). */
  consent(consent: NonNullable<LanderOptions['consent']>): void;
  /**
   * The user signed in on this install, e.g. `identify(user.id)` after a login: the server keeps only
   * a keyed hash, for its self-referral rule (docs/fraud.md). Sending it again is harmless.
   */
  identify(userId: string): Promise<void>;
  /**
   * An invite link for the user `identify()` named, e.g. `createLink({ channel: 'share' })`: the short
   * link, or null when it was not made (not identified, refused, offline).
   */
  createLink(options?: InviteOptions): Promise<InviteLink | null>;
}

const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createLander(options: LanderOptions): Lander {
  const base = options.url.replace(/\/+$/, '');
  const clock = options.clock ?? SYSTEM_CLOCK;
  const fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 3000;
  const store = createStore(options.platform.storage, options.app);
  const debug = options.debug;
  const log = (line: string) => {
    if (typeof debug === 'function') debug(line);
    else if (debug) console.log(`[lander] ${line}`);
  };

  let loaded: Promise<InstallState> | null = null;
  /** The install's stored state, made (with a new install id) on first need. */
  const state = () => {
    loaded ??= store.read('install').then(async (stored) => {
      if (stored && typeof stored.installId === 'string') return stored;
      const fresh: InstallState = { installId: newId() };
      await store.write('install', fresh);
      return fresh;
    });
    return loaded.then((s) => ({ ...s }));
  };
  const keep = (s: InstallState) => {
    loaded = Promise.resolve(s);
    return store.write('install', s);
  };
  const installId = async () => (await state()).installId;
  let consent = options.consent;

  const queue = createEventQueue({
    store,
    clock,
    fetcher,
    endpoint: `${base}/api/a/event`,
    app: options.app,
    timeoutMs,
    installId,
    consent: () => consent,
    log,
  });

  const post = (path: string, body: unknown) => postJson(fetcher, clock, base + path, body, timeoutMs);
  const guard = <T>(what: string, fallback: T, run: () => Promise<T>): Promise<T> =>
    run().catch((error: unknown) => {
      log(`${what} failed: ${String(error)}`);
      return fallback;
    });

  const pendingLink = () => guard('pendingLink', null, () => store.read('link'));
  const late = lateAnswers({
    clock,
    state,
    pending: pendingLink,
    online: (run) => guard('online', 0, async () => options.platform.online?.(run)),
    attempt: () =>
      guard('install', OFFLINE, () =>
        runInstall({
          store,
          clock,
          fetcher,
          platform: options.platform,
          endpoint: `${base}/api/a/install`,
          app: options.app,
          host: hostOf(base),
          test: options.test === true,
          consent: () => consent,
          timeoutMs,
          state,
          keep,
          log,
        }),
      ),
  });

  return {
    install: late.install,
    installId,
    onLink: late.onLink,
    link: (o) => late.link(o?.timeoutMs ?? timeoutMs),
    pendingLink,
    consumeLink: () =>
      guard('consumeLink', null, async () => {
        const link = await store.read('link');
        if (link) await store.write('link', null);
        return link;
      }),
    open: (url) =>
      guard('open', OFFLINE, async () => {
        const carrier = openCarrier(url);
        if (!carrier) {
          log('open: no carrier in the link, nothing sent');
          return { matched: false, reason: 'none' };
        }
        const body = withConsent(
          { app: options.app, installId: await installId(), carrier, ...(options.test ? { test: true } : {}) },
          consent,
        );
        log(`open: sending ${JSON.stringify(body)}`);
        const outcome = await post('/api/a/open', body);
        log(`open: ${outcome.kind === 'ok' ? `answer ${JSON.stringify(outcome.body)}` : outcome.why}`);
        if (outcome.kind === 'drop') return REJECTED;
        return (outcome.kind === 'ok' && readAnswer(outcome.body)) || OFFLINE;
      }),
    track(name, props) {
      void guard('track', false, () => queue.track(name, props?.value, props?.currency)).then(
        (queued) =>
          queued || log(`track: "${String(name)}" not queued (a-z 0-9 _ . -, at most 40; a value within ±1e12)`),
        () => undefined,
      );
    },
    flush: () => guard('flush', undefined, () => queue.flush()),
    consent(given) {
      consent = given;
    },
    identify: (userId) =>
      guard('identify', undefined, async () => {
        if (typeof userId !== 'string' || userId.length === 0 || userId.length > 256) {
          log('identify: a user id is 1–256 characters; nothing sent');
          return;
        }
        await store.write('user', userId);
        const body = { app: options.app, installId: await installId(), userId };
        log('identify: sending the user id');
        const outcome = await post('/api/a/identify', body);
        log(`identify: ${outcome.kind === 'ok' ? 'kept' : outcome.kind === 'drop' ? 'refused' : outcome.why}`);
      }),
    createLink: (o) =>
      guard('createLink', null, async () => createInvite(post, store, options.app, await installId(), o)),
  };
}
