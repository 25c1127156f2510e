/**
 * `install()` (docs/sdk.md): at most one install per installation. The first attempt reads the
 * carriers and the device, keeps the body, and asks `POST /api/a/install` within the budget. A server
 * answer (or a 4xx) is final; "offline" (no answer in time, a network failure, 429, 5xx, a body that is
 * not an answer) is retried with the same body — in the same session (late.ts) and at the next launch —
 * for 24 hours after the first attempt.
 * A test device's 403 (an installation not registered yet, docs/attribution.md) is "offline" too: once
 * the operator registers the install id it logged, the next launch is answered as a test.
 */
import { linkOf, OFFLINE, REJECTED, readAnswer } from './answer.ts';
import { bareCarrier, clipboardCarrier, linkCarrier } from './carriers.ts';
import { type Outcome, postJson } from './http.ts';
import type { InstallState, Store } from './store.ts';
import type { Answer, Clock, Consent, DeviceFacts, InstallReferrerTimes, PlatformAdapter } from './types.ts';

/** How long after the first attempt an "offline" install is asked again. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface InstallContext {
  store: Store;
  clock: Clock;
  fetcher: typeof fetch;
  platform: PlatformAdapter;
  endpoint: string;
  app: string;
  host: string;
  test: boolean;
  /** The person's consent as the app last gave it (docs/privacy.md, "Consent"). */
  consent(): Consent | undefined;
  timeoutMs: number;
  state(): Promise<InstallState>;
  /** Keeps the install's state, for the session's next attempt and on the device. */
  keep(state: InstallState): Promise<void>;
  log(line: string): void;
}

/** The install's answer within `timeoutMs` of the call. */
export async function runInstall(c: InstallContext): Promise<Answer> {
  const started = c.clock.now();
  const state = await c.state();
  const late = state.startedAt !== undefined && state.startedAt + RETRY_WINDOW_MS <= started;
  if (state.final || late) {
    const answer = state.answer ?? OFFLINE;
    c.log(`install: stored answer ${JSON.stringify(answer)}, nothing sent`);
    return answer;
  }
  if (!state.body) {
    state.body = await firstBody(c, state.installId, started);
    state.startedAt = started;
    await c.keep(state);
  }
  const budget = c.timeoutMs - (c.clock.now() - started);
  // Reading the platform took the whole budget: the body is kept, and the next launch sends it.
  let outcome: Outcome = { kind: 'retry', why: 'the budget went on reading the platform' };
  if (budget > 0) {
    c.log(`install: sending ${JSON.stringify(state.body)}`);
    outcome = await postJson(c.fetcher, c.clock, c.endpoint, state.body, budget);
  }
  const unregistered = c.test && outcome.kind === 'drop' && outcome.status === 403;
  if (unregistered) c.log(`install: not a registered test device yet: register install id ${state.installId}`);
  const answer =
    outcome.kind === 'ok' ? readAnswer(outcome.body) : outcome.kind === 'drop' && !unregistered ? REJECTED : null;
  c.log(`install: ${outcome.kind === 'ok' ? `answer ${JSON.stringify(outcome.body)}` : outcome.why}`);
  if (!answer) {
    await c.keep({ ...state, answer: OFFLINE });
    return OFFLINE;
  }
  const link = linkOf(answer);
  if (link) await c.store.write('link', link);
  await c.keep({ ...state, answer, final: true });
  return answer;
}

/** The first attempt's body: the device, and each carrier the SDK may send (carriers.ts). */
async function firstBody(c: InstallContext, installId: string, started: number): Promise<Record<string, unknown>> {
  const left = () => Math.max(0, c.timeoutMs - (c.clock.now() - started));
  const read = <T>(what: string, run: (() => T | Promise<T>) | undefined) =>
    within(c.clock, left(), async () => (run ? await run() : null)).catch((error: unknown) => {
      c.log(`install: reading ${what} failed: ${String(error)}`);
      return null;
    });
  const p = c.platform;
  const [device, clipboard, referrer, stamp, harmony, times] = await Promise.all([
    read('the device', () => p.device()),
    read('the clipboard', p.clipboard && (() => p.clipboard?.())),
    read('the Play referrer', p.playReferrer && (() => p.playReferrer?.())),
    read('the APK stamp', p.apkStamp && (() => p.apkStamp?.())),
    read('the launch link', p.harmonyLink && (() => p.harmonyLink?.())),
    read('the Play referrer times', p.installReferrerTimes && (() => p.installReferrerTimes?.())),
  ]);
  const found = {
    clipboard: clipboardCarrier(clipboard, c.host),
    playReferrer: bareCarrier(referrer),
    apk: bareCarrier(stamp),
    harmonyLink: linkCarrier(harmony),
  };
  const carriers = Object.fromEntries(Object.entries(found).filter(([, value]) => value !== null));
  c.log(`install: carriers found: ${Object.keys(carriers).join(', ') || 'none'}`);
  const facts = (device ?? {}) as Partial<DeviceFacts>;
  const body: Record<string, unknown> = {
    app: c.app,
    platform: facts.platform,
    osVersion: facts.osVersion,
    ...(facts.model ? { model: facts.model } : {}),
    screen: facts.screen,
    tz: facts.tz,
    langs: facts.langs,
    installId,
  };
  if (Object.keys(carriers).length > 0) body.carriers = carriers;
  const installReferrer = referrerTimes(times);
  if (installReferrer) body.installReferrer = installReferrer;
  if (c.test) body.test = true;
  return withConsent(body, c.consent());
}

const TIME_FIELDS = [
  'referrerClickTimestampSeconds',
  'installBeginTimestampSeconds',
  'referrerClickTimestampServerSeconds',
  'installBeginTimestampServerSeconds',
] as const;

/** The Play referrer's known times (whole seconds above 0; Play's 0 is "unknown"), or null when none is. */
function referrerTimes(times: InstallReferrerTimes | null | undefined): InstallReferrerTimes | null {
  const known: InstallReferrerTimes = {};
  for (const field of TIME_FIELDS) {
    const value = times?.[field];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 4_102_444_800)
      known[field] = value;
  }
  return Object.keys(known).length > 0 ? known : null;
}

/** `run`'s result, or a rejection once `ms` have passed: a platform read that hangs is skipped. */
function within<T>(clock: Clock, ms: number, run: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    run().then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * `body` with the person's consent, when the app gave one: the install's, and every open's and
 * event's after it, so consent withdrawn later stops what the install allowed (docs/privacy.md).
 * Only the contract's fields (JSON's key list): any other would have the server refuse the call.
 */
export function withConsent<T extends Record<string, unknown>>(body: T, consent: Consent | undefined): T {
  // Only the contract's fields; none of them (as Java's SDK): no field at all.
  const kept = consent && JSON.stringify(consent, ['tracking', 'att', 'gpc', 'tcf', 'gpp']);
  return kept && kept !== '{}' ? { ...body, consent: JSON.parse(kept) } : body;
}
