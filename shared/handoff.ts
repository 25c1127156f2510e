/**
 * The one thing the server hands to the browser: an explicit, typed allow-list.
 * Written by the worker into `<script type="application/json" id="lander-data">` (a data block, so
 * no script-src exception is needed) and read once by the browser entry.
 */
import type { ApkConfirmView } from './about-view.ts';
import type { ApkParentFacts } from './apk-parent.ts';
import type { AttributionView } from './attribution.ts';
import type { Campaign } from './campaign.ts';
import type { AppItem, CommonConfig } from './config/schema.ts';
import type { Verdict } from './device/verdict.ts';
import type { DeviceInfo } from './device.ts';
import type { DownloadView } from './download-view.ts';
import type { LandingView } from './landing-view.ts';
import type { OpenAppView } from './open-app-view.ts';
import type { SiteMeta } from './page-meta.ts';
import type { Language } from './texts.ts';

/**
 * What the worker rendered the page with (docs/config.md), handed to the browser as is; what the
 * browser learns later lives beside it (client/app/store.tsx). Nothing secret belongs here.
 */
export interface Handoff {
  /** The build whose HTML produced this page. */
  buildId: string;
  env: 'development' | 'production';
  diagnostics: boolean;
  /** `COOKIELESS=on` (docs/operators.md): the page sets no cookie and resolves no visitor or fingerprint id. */
  cookieless: boolean;
  /** The page's origin as the visitor sees it (`https://…`), for canonical and share URLs. */
  origin: string;
  /**
   * The app's base path on this host (docs/routes.md#apps): `/@notes` on a shared host, else ''.
   * Every link, route and call of the page starts with it, so a visitor stays in the app.
   */
  base: string;
  language: Language;
  /**
   * The worker's detection (docs/device.md): its verdict (what the screens read), or on `/test` the whole
   * device its table shows. The browser's refinement is learned state.
   */
  deviceInfo: Verdict | DeviceInfo;
  /** The visit's campaign: the token's fields and plain parameters, apart (shared/campaign.ts). */
  campaign: Campaign;
  downloadOrigin: string;
  traceOrigin: string;
  /** Opens the debug console (docs/builds.md); the operator config may switch it on. */
  debug?: boolean;
  /**
   * The configured apps' platform and version, as `/test` lists them (docs/config.md). What the
   * screens show of an app is in the views below, already in the visitor's language.
   */
  appData: Pick<AppItem, 'plat' | 'version'>[];
  /** Download domains the browser probes in order (docs/config.md). */
  domains: string[];
  /** The path the browser probes on each download domain (docs/config.md). */
  commonConfig: Pick<CommonConfig, 'probe_path'>;
  /** Which configuration this page came from: its revision, and why the demo is served if it is. */
  config: { revision: string; fallback: string | null };
  /** Head metadata from the configuration, in the visitor's language. */
  site: SiteMeta;
  /** The download page as decided on the worker for this device and language (docs/screens.md). */
  download: DownloadView;
  /** How a tap opens the app here (docs/screens.md), decided on the worker; null when it cannot. */
  openApp: OpenAppView | null;
  /** The landing screen as decided on the worker (docs/screens.md). */
  landing: LandingView;
  /** What the page's taps carry to the app (docs/attribution.md). */
  attribution: AttributionView;
  /** The parent APK uploaded for the Android app, stamped per download (docs/apk-stamping.md). */
  apkParent: ApkParentFacts | null;
  /**
   * On the visitor screens, the about block and filing numbers as the worker wrote them, escaped
   * (docs/screens.md#about-the-app); null without either, and on other pages.
   */
  about: string | null;
  /** Mainland China: what an APK tap confirms first (docs/screens.md#mainland-china); else null. */
  apkConfirm: ApkConfirmView | null;
}

/** React Router's hydration data, with errors flattened to plain objects. */
export interface HydrationState {
  loaderData: Record<string, unknown>;
  actionData: Record<string, unknown> | null;
  errors: Record<string, SerializedError> | null;
}

export type SerializedError =
  | { kind: 'response'; status: number; statusText: string; data: unknown }
  | { kind: 'error'; message: string };

/** The page's data block: the hand-off and React Router's hydration data. */
export interface HandoffBlock {
  handoff: Handoff;
  hydration: HydrationState;
}

export const HANDOFF_ELEMENT_ID = 'lander-data';

const UNSAFE_CHARS: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON that is safe inside an HTML `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 are escaped,
 * so no value can close the element or start a comment.
 */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => UNSAFE_CHARS[ch] ?? ch);
}

/**
 * The hand-off as the page carries it. The desktop QR image is in the page once, in its `<img>`
 * (class `QR_CLASS`), so it is left out here and read back from the page (`parseHandoff`).
 */
export function serializeHandoff(block: HandoffBlock): string {
  const { qr } = block.handoff.download;
  if (!qr) return serializeForScript(block);
  const download = { ...block.handoff.download, qr: { ...qr, src: '' } };
  return serializeForScript({ ...block, handoff: { ...block.handoff, download } });
}

/**
 * Reads and sanity-checks the hand-off; throws when the page carries none or a malformed one.
 * `qrSrc` is the page's QR image, which the hand-off leaves out.
 */
export function parseHandoff(text: string | null | undefined, qrSrc: string | null = null): HandoffBlock {
  // `null` is JSON for an absent block; both parts must be objects (`typeof null` is 'object' too).
  const block = JSON.parse(text || 'null') as Partial<HandoffBlock> | null;
  if (!block?.handoff || !block.hydration || typeof block.handoff !== 'object' || typeof block.hydration !== 'object') {
    throw new Error('Lander: the page carries no valid hand-off data');
  }
  const qr = block.handoff.download?.qr;
  if (qr && qrSrc) qr.src = qrSrc;
  return block as HandoffBlock;
}
