/**
 * Which download the page offers a device (docs/screens.md). Decided once, on the worker, from the
 * server's device verdict (shared/device/verdict.ts), and handed to the browser: the button in the server HTML is the one
 * that stays after hydration, whatever the browser later refines.
 */
import type { AppItem } from '../../shared/config/schema.ts';
import type { Verdict } from '../../shared/device/verdict.ts';
import type { OperatingSystem } from '../../shared/device.ts';
import type { DownloadKind } from '../../shared/download-view.ts';
import { appItemFor } from '../config/app-item.ts';

export interface DownloadTarget {
  kind: DownloadKind;
  href: string;
  /** For an APK: its path on the download domains; the browser rebuilds `href` from the reachable domain. */
  apkPath?: string;
  /** For the App Store: the app's id, which `href` links to and the Smart App Banner names. */
  appStoreId?: string;
}

export interface DownloadChoice {
  /** The page layout: a phone's single button, or the desktop's QR code and both stores. */
  layout: OperatingSystem;
  /** The one primary button on a phone or tablet; null when nothing installs on this device. */
  primary: DownloadTarget | null;
  /** On a desktop: the App Store and Android buttons beside the QR code. */
  stores: DownloadTarget[];
  /** Tapping a button shows the open-in-browser guide: this in-app browser blocks downloads. */
  guide: boolean;
  /** The app item whose name, version, size and date the page shows. */
  app: AppItem;
}

export interface ChooseInput {
  appData: readonly AppItem[];
  device: Pick<Verdict, 'operatingSystem' | 'installsApk' | 'inApp'>;
  /** Where APKs come from until the browser finds a reachable download domain (docs/config.md). */
  downloadOrigin: string;
  /** Added to App Store links: the provider token and campaign (`?pt=…&ct=…`, docs/attribution.md). */
  appStoreQuery?: string;
}

// An iOS item without its App Store id offers no App Store button: never another app's id (docs/config.md#production).
function appStore(item: AppItem | undefined, query = ''): DownloadTarget | null {
  if (!item?.app_store_id) return null;
  const appStoreId = item.app_store_id;
  return { kind: 'app-store', href: `https://apps.apple.com/app/id${appStoreId}${query}`, appStoreId };
}

function android(item: AppItem | undefined, downloadOrigin: string): DownloadTarget | null {
  if (item?.download_url) {
    return { kind: 'apk', href: `${downloadOrigin}${item.download_url}`, apkPath: item.download_url };
  }
  return item?.store_url ? { kind: 'store', href: item.store_url } : null;
}

function appGallery(item: AppItem | undefined): DownloadTarget | null {
  return item?.appgallery_id
    ? {
        kind: 'appgallery',
        href: `https://appgallery.huawei.com/app/detail?id=${encodeURIComponent(item.appgallery_id)}`,
      }
    : null;
}

export function chooseDownload({ appData, device, downloadOrigin, appStoreQuery }: ChooseInput): DownloadChoice {
  const layout = device.operatingSystem;
  const iosItem = appItemFor(appData, 2);
  const androidItem = appItemFor(appData, 1);
  const blocks = device.inApp?.blocksDownloads === true;
  const fallbackItem = appData[0] as AppItem;

  if (layout === 'PC') {
    const stores = [appStore(iosItem, appStoreQuery), android(androidItem, downloadOrigin)].filter((t) => t !== null);
    return { layout, primary: null, stores, guide: blocks, app: appItemFor(appData, 3) ?? fallbackItem };
  }
  if (layout === 'iOS') {
    return {
      layout,
      primary: appStore(iosItem, appStoreQuery),
      stores: [],
      guide: blocks,
      app: iosItem ?? fallbackItem,
    };
  }
  let primary =
    layout === 'Harmony'
      ? (appGallery(androidItem) ?? (device.installsApk ? android(androidItem, downloadOrigin) : null))
      : android(androidItem, downloadOrigin);
  let guide = blocks;
  // Android WeChat cannot download, but it opens Tencent's own app store (docs/screens.md).
  const installsAndroidApp = primary?.kind === 'apk' || primary?.kind === 'store';
  if (blocks && device.inApp?.name === 'WeChat' && androidItem?.yyb_url && installsAndroidApp) {
    primary = { kind: 'yyb', href: androidItem.yyb_url };
    guide = false;
  }
  return { layout, primary, stores: [], guide, app: androidItem ?? fallbackItem };
}
