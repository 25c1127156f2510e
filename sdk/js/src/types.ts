/**
 * The SDK's public types (docs/sdk.md): what the app passes in, what it gets back, and the small
 * adapter each platform gives for storage, device facts and carriers.
 */

/** What the app reports of the device (docs/attribution.md, `POST /api/a/install`). */
export interface DeviceFacts {
  platform: 'ios' | 'android' | 'harmony';
  osVersion: string;
  model?: string | null;
  /** The whole screen in points (iOS) or dp (Android, HarmonyOS), and its scale. */
  screen: { w: number; h: number; scale: number };
  /** IANA time zone, e.g. `Asia/Shanghai`. */
  tz: string;
  /** The system's preferred languages, first the most preferred. */
  langs: string[];
}

type Maybe<T> = T | Promise<T>;

/** A small persistent key-value store: `localStorage`, AsyncStorage, Capacitor Preferences, a Map. */
export interface KeyValueStore {
  get(key: string): Maybe<string | null | undefined>;
  set(key: string, value: string): Maybe<void>;
  remove(key: string): Maybe<void>;
}

/**
 * What a platform provides. Each carrier reader returns the raw text it found (or nothing); the SDK
 * decides what of it may be sent. A reader that throws or hangs is skipped.
 */
export interface PlatformAdapter {
  storage: KeyValueStore;
  device(): Maybe<DeviceFacts>;
  /** The clipboard's text, read only where the platform says it holds a URL. */
  clipboard?(): Maybe<string | null | undefined>;
  /** The Play install referrer string. */
  playReferrer?(): Maybe<string | null | undefined>;
  /** The carrier stamped into the installed APK (docs/apk-stamping.md). */
  apkStamp?(): Maybe<string | null | undefined>;
  /** HarmonyOS NEXT: the App Linking URL the app was first launched with. */
  harmonyLink?(): Maybe<string | null | undefined>;
  /** The Play Install Referrer's times (`ReferrerDetails`), for the server's fraud rules (docs/fraud.md). */
  installReferrerTimes?(): Maybe<InstallReferrerTimes | null | undefined>;
  /** Calls `run` each time the network comes back (the web's `online` event): an `offline` install is asked again then. */
  online?(run: () => void): unknown;
}

/** The Play Install Referrer's times, in seconds since 1970, as `ReferrerDetails` gives them (0: unknown). */
export interface InstallReferrerTimes {
  referrerClickTimestampSeconds?: number;
  installBeginTimestampSeconds?: number;
  referrerClickTimestampServerSeconds?: number;
  installBeginTimestampServerSeconds?: number;
}

/** The clock and timers the SDK waits on: the real ones, or a test's. */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The person's consent, sent with the install (docs/privacy.md, "Consent"): `tracking: false`, an iOS
 * App Tracking Transparency status other than `authorized`, GPC, or a TCF or GPP string without the
 * needed purposes stops the probabilistic match and sends to third parties for this install.
 */
export interface Consent {
  tracking?: boolean;
  att?: 'authorized' | 'denied' | 'restricted' | 'notDetermined';
  gpc?: boolean;
  /** The TC string an in-app consent platform keeps (`IABTCF_TCString`). */
  tcf?: string;
  /** The GPP string an in-app consent platform keeps (`IABGPP_HDR_GppString`). */
  gpp?: string;
}

export interface LanderOptions {
  /** The Lander deployment, e.g. `https://get.pebble-notes.example`: its API, and the only host a clipboard link may name. */
  url: string;
  /** The package name or bundle id, as configured in Lander (`appData[].package` / `.bundle_id`). */
  app: string;
  platform: PlatformAdapter;
  /** The budget of `install()` and `open()`, in ms (default 3000). */
  timeoutMs?: number;
  /** Logs every step (carriers found, what was sent, what came back); or a function that gets the lines. */
  debug?: boolean | ((line: string) => void);
  /** A test device: installs and opens are answered as real ones and never counted (docs/sdk.md). */
  test?: boolean;
  /** The person's consent, when the app knows it at start; else `consent()` before `install()`. */
  consent?: Consent;
  /** Another `fetch` (default: the global one). */
  fetch?: typeof fetch;
  /** Another clock (default: `Date.now` and the global timers); tests use it. */
  clock?: Clock;
}

export type MatchMethod = 'clipboard' | 'referrer' | 'apk' | 'harmony' | 'probabilistic';

/**
 * What `install()` and `open()` answer. `offline` (no answer in time, a network failure, 429, 5xx or
 * a body that is not the contract's) and `rejected` (a 4xx) come from the SDK, the rest from the server.
 */
export type Answer = (
  | {
      matched: true;
      method: MatchMethod;
      confidence: number;
      data: Record<string, string>;
      clickId: string;
      clickedAt: string | null;
    }
  | { matched: false; reason: 'none' | 'ambiguous' | 'expired' | 'unavailable' | 'claimed' | 'offline' | 'rejected' }
) & {
  /** A test device's answer only: why the server answered so (docs/attribution.md). */
  explain?: Explain;
};

/** Why a test device's answer is what it is: each carrier's verdict, the network's counts, and sentences. */
export interface Explain {
  carriers: { source: string; verdict: string; tapRecorded?: boolean }[];
  /** The probabilistic path's counts (docs/attribution.md), null when it was not needed. */
  network: ({ outcome: string } & Record<string, unknown>) | null;
  /** The same in English sentences, as the console shows them. */
  summary: string[];
}

/** The deferred link: the matched tap's campaign, kept until `consumeLink()`. */
export interface DeferredLink {
  clickId: string;
  method: MatchMethod;
  data: Record<string, string>;
  clickedAt: string | null;
}

/** An app event's extra: a number counted with it, in `currency` when it is revenue (docs/operators.md#revenue). */
export interface TrackProps {
  value?: number;
  /** ISO 4217, in capitals: `value` is then in its major unit (9.99 USD), at most its decimals. */
  currency?: string;
}

/** What `createLink()` is asked for: a channel and campaign fields the operator allows (docs/sdk.md). */
export interface InviteOptions {
  channel?: string;
  data?: Record<string, string>;
}

/** The invite link `createLink()` made, as the server answers it: the short link to share, its QR code, its campaign. */
export interface InviteLink {
  url: string;
  slug: string;
  qr: string;
  data: Record<string, string>;
}
