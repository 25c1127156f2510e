/**
 * The one thing the server hands to the browser: an explicit, typed allow-list.
 * Written by the worker into `<script type="application/json" id="lander-data">` (a data block, so
 * no script-src exception is needed) and read once by the browser entry.
 */
import type { AppItem, CommonConfig } from './config/schema.ts';
import type { DeviceInfo } from './device.ts';
import type { DownloadView } from './download-view.ts';
import type { Identity } from './identity.ts';
import type { OpenAppView } from './open-app.ts';
import type { SiteMeta } from './page-meta.ts';

export type Language = 'zh-CN' | 'en';

/** Client store seed (PRODUCT.md §6). Nothing secret belongs here. */
export interface ClientStore {
  /** The build whose HTML produced this page. */
  buildId: string;
  env: 'development' | 'production';
  diagnostics: boolean;
  /** The page's origin as the visitor sees it (`https://…`), for canonical and share URLs. */
  origin: string;
  language: Language;
  deviceInfo: DeviceInfo;
  /** The worker's detection, kept by the browser when it refines `deviceInfo` (PRODUCT.md §3, §5.3). */
  serverDeviceInfo?: DeviceInfo;
  queryData: Record<string, string>;
  downloadOrigin: string;
  downloadReachable: { init: boolean; url: string };
  traceOrigin: string;
  /** The newest deployed build, once the browser has asked (PRODUCT.md §5.3, §8). */
  latestBuildId?: string;
  /** Opens the debug console (PRODUCT.md §8); the operator config may switch it on. */
  debug?: boolean;
  /** The configured apps (PRODUCT.md §6): public facts only. */
  appData: AppItem[];
  /** Download domains the browser probes in order (§6). */
  domains: string[];
  commonConfig: CommonConfig;
  /** Which configuration this page came from: its revision, and why the demo is served if it is. */
  config: { revision: string; fallback: string | null };
  /** Head metadata from the configuration, in the visitor's language. */
  site: SiteMeta;
  /** The download page as decided on the worker for this device and language (§5.1). */
  download: DownloadView;
  /** Visitor id and fingerprint id with their sources (PRODUCT.md §4); resolved in the browser. */
  identity: Identity;
  /** How a tap opens the app here (§5.1), decided on the worker; null when it cannot. */
  openApp: OpenAppView | null;
  /** What the landing button copies for the app's first launch (§5.2): the `d` token, or the query data. */
  campaignToken?: string;
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

export interface Handoff {
  store: ClientStore;
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

/** Reads and sanity-checks the hand-off; throws when the page carries none or a malformed one. */
export function parseHandoff(text: string | null | undefined): Handoff {
  if (!text) throw new Error('Lander: the page carries no hand-off data');
  const value: unknown = JSON.parse(text);
  if (
    typeof value !== 'object' ||
    value === null ||
    !('store' in value) ||
    !('hydration' in value) ||
    typeof value.store !== 'object' ||
    typeof value.hydration !== 'object'
  ) {
    throw new Error('Lander: malformed hand-off data');
  }
  return value as Handoff;
}
