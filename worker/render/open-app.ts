/**
 * How a tap opens the app (docs/screens.md), decided on the worker from the server's device
 * verdict (shared/device/verdict.ts), so the server HTML already carries the right `<a href>`. The browser adds only the
 * 2500 ms fallback timer (client/browser/open-app-taps.ts). docs/campaign-links.md has the table.
 */
import type { AppItem, LinksConfig } from '../../shared/config/schema.ts';
import type { Verdict } from '../../shared/device/verdict.ts';
import type { OpenAppChoice, OpenFallback } from '../../shared/open-app-view.ts';
import { appItemFor } from '../config/app-item.ts';

/** The scheme the Baidu browser and the Baidu app open (docs/campaign-links.md). */
export const BAIDU_SCHEME = 'bdashighdown';
/** The path every app link carries: `<scheme>://open?…`, `https://<ul-domain>/open/?…`. */
export const OPEN_PATH = 'open';

export interface OpenAppInput {
  appData: readonly AppItem[];
  links: Pick<LinksConfig, 'universal_link_domain' | 'paths'> & Partial<Pick<LinksConfig, 'harmony_app_ids'>>;
  device: Pick<Verdict, 'operatingSystem' | 'browser' | 'webView' | 'installsApk' | 'inApp'>;
  env: 'development' | 'production';
  /** The page's own host: a Universal Link there never opens the app. */
  pageHost: string;
  /** Carried to the app as query parameters (docs/screens.md). */
  queryData: Readonly<Record<string, string>>;
  /** The platform's download, or null when nothing installs here (or the webview blocks downloads). */
  download: OpenFallback | null;
  /** Told when the configured Universal Link domain is the page's own host and is ignored. */
  onSameHost?: (domain: string) => void;
}

/** `?a=1&b=2`, or `''` when there is nothing to carry. */
function queryString(queryData: Readonly<Record<string, string>>): string {
  const query = new URLSearchParams(queryData).toString();
  return query ? `?${query}` : '';
}

/** The Universal Link path: the first configured pattern up to its first wildcard (`/open/*` → `/open/`). */
function universalLinkPath(paths: readonly string[] | undefined): string {
  const first = paths?.[0] ?? `/${OPEN_PATH}/*`;
  return first.replace(/[*?].*$/, '') || '/';
}

/**
 * Android Chrome opens `intent://` URLs and, when no app takes them, goes to `S.browser_fallback_url`
 * itself (developer.chrome.com/docs/android/intents), so no timer is needed there.
 */
export function intentUrl(scheme: string, query: string, pkg: string | undefined, fallback: string | null): string {
  const parts = [`scheme=${scheme}`];
  if (pkg) parts.push(`package=${pkg}`);
  if (fallback) parts.push(`S.browser_fallback_url=${encodeURIComponent(fallback)}`);
  return `intent://${OPEN_PATH}${query}#Intent;${parts.join(';')};end`;
}

/** Android's own Chrome, not a webview (`; wv)`) nor another Chromium browser. */
function isAndroidChrome(device: OpenAppInput['device']): boolean {
  return device.operatingSystem === 'Android' && device.browser === 'Chrome' && !device.inApp && !device.webView;
}

/** How a tap opens the app on this device; null when no URL scheme is configured or on a desktop. */
export function chooseOpenApp(input: OpenAppInput): OpenAppChoice | null {
  const { device, links, queryData, download } = input;
  if (device.operatingSystem === 'PC') return null;
  const ios = device.operatingSystem === 'iOS';
  const query = queryString(queryData);
  let domain = links.universal_link_domain;
  if (domain && domain === input.pageHost.toLowerCase()) {
    input.onSameHost?.(domain);
    domain = undefined;
  }
  const appLink = domain ? `https://${domain}${universalLinkPath(links.paths)}${query}` : null;
  // HarmonyOS NEXT opens its apps by App Linking (docs/attribution.md); 2–4 run Android apps and take
  // the Android path below. The page adds the tap's carrier (worker/attribution/page-links.ts).
  const harmonyNext = device.operatingSystem === 'Harmony' && !device.installsApk;
  if (harmonyNext && appLink && links.harmony_app_ids?.length && !device.inApp?.blocksSchemes) {
    return { method: 'universal-link', href: appLink, fallback: download };
  }
  const item = appItemFor(input.appData, ios ? 2 : 1);
  if (!item?.schemes) return null;

  const universalLink = ios ? appLink : null;
  const baidu = device.browser === 'Baidu';
  const scheme = baidu ? BAIDU_SCHEME : input.env === 'production' ? item.schemes.pro : item.schemes.dev;
  const schemeUrl = `${scheme}://${OPEN_PATH}${query}`;

  if (device.inApp?.blocksSchemes) {
    // iOS WeChat ≥ 7.0.5 follows a Universal Link tapped on a real link (docs/screens.md).
    if (universalLink && device.inApp.universalLinks) {
      return { method: 'universal-link', href: universalLink, fallback: download };
    }
    return { method: 'guide', href: schemeUrl, fallback: null };
  }
  if (baidu) return { method: 'scheme', href: schemeUrl, fallback: download };
  if (universalLink) return { method: 'universal-link', href: universalLink, fallback: download };
  if (isAndroidChrome(device)) {
    return {
      method: 'intent',
      href: intentUrl(scheme, query, item.package, download?.href ?? null),
      fallback: download,
    };
  }
  // Android webviews ignore intent fallbacks; Firefox for Android and the rest take the plain scheme.
  return { method: 'scheme', href: schemeUrl, fallback: download };
}
