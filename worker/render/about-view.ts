/**
 * Builds the "about this app" block, the footer's filing numbers and the mainland APK confirmation
 * (shared/about-view.ts, docs/screens.md#about-the-app) from the configuration's `about` and `china`
 * in the visitor's language. A configuration without them gets none: the page renders as before.
 */
import type { ApkConfirmView } from '../../shared/about-view.ts';
import type { ApkParentFacts } from '../../shared/apk-parent.ts';
import type { AboutConfig, AppItem, LanderConfig } from '../../shared/config/schema.ts';
import type { OperatingSystem } from '../../shared/device.ts';
import type { Language } from '../../shared/texts.ts';
import { appItemFor } from '../config/app-item.ts';
import { localize } from '../config/localize.ts';
import { type AboutBlockView, aboutBlockMarkup, aboutMarkup, filingsMarkup } from './about-markup.ts';
import { formatDate } from './download-texts.ts';

/** MIIT's filing lookup, where an ICP number is customarily linked. */
export const BEIAN_URL = 'https://beian.miit.gov.cn/';

const aboutEn = {
  heading: 'About this app',
  developer: 'Developer',
  version: 'Version',
  size: 'Size',
  screenshots: 'Screenshots',
  privacy: 'Privacy policy',
  permissions: 'Permissions the Android app asks for',
  confirmTitle: (name: string) => `Download ${name}?`,
  app: 'App',
  download: 'Download',
  cancel: 'Cancel',
};

const aboutTables: Record<Language, typeof aboutEn> = {
  en: aboutEn,
  'zh-CN': {
    heading: '关于此应用',
    developer: '开发者',
    version: '版本',
    size: '大小',
    screenshots: '应用截图',
    privacy: '隐私政策',
    permissions: '安卓版申请的权限',
    confirmTitle: (name: string) => `下载「${name}」？`,
    app: '应用',
    download: '下载',
    cancel: '取消',
  },
};

export interface AboutInput {
  config: LanderConfig;
  language: Language;
  /** The app item the page shows for this device (worker/config/app-item.ts). */
  item: AppItem;
  /** The APK uploaded for the Android app (docs/apk-stamping.md), if any. */
  apkParent: ApkParentFacts | null;
}

/** `36200000` bytes as shown: `36.2 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Version, date and size: configured, else the uploaded APK's (Android only), else the item's. */
function versionFacts(about: AboutConfig, { item, apkParent, language }: AboutInput) {
  const apk = item.plat !== 2 ? apkParent : null;
  const version = about.version ?? apk?.version ?? item.version;
  // A date belongs to the version it came with: the item's date only for the item's version.
  const date = about.version_date ?? (about.version || apk ? undefined : item.updated_at);
  const size = about.size ?? (apk ? formatBytes(apk.size) : item.size);
  return { version: date ? `${version} · ${formatDate(date, language)}` : version, size };
}

/** The labelled facts both the about block and the confirmation show. */
function facts(input: AboutInput, about: AboutConfig): { label: string; value: string }[] {
  const t = aboutTables[input.language];
  const { version, size } = versionFacts(about, input);
  const developer = about.developer ? [{ label: t.developer, value: localize(about.developer, input.language) }] : [];
  return [...developer, { label: t.version, value: version }, { label: t.size, value: size }];
}

function permissionsOf(about: AboutConfig, language: Language) {
  return about.permissions.map((p) => ({ name: localize(p.name, language), purpose: localize(p.purpose, language) }));
}

/** The about block, or null when the configuration has no `about`. */
export function aboutView(input: AboutInput): AboutBlockView | null {
  const { about } = input.config;
  if (!about) return null;
  const { language } = input;
  const t = aboutTables[language];
  return {
    heading: t.heading,
    facts: facts(input, about),
    description: about.description ? localize(about.description, language) : null,
    screenshotsHeading: t.screenshots,
    screenshots: about.screenshots.map((s) => ({
      src: s.url,
      alt: localize(s.alt, language),
      width: s.width,
      height: s.height,
    })),
    privacy: about.privacy_url ? { label: t.privacy, href: about.privacy_url } : null,
    permissionsHeading: t.permissions,
    permissions: permissionsOf(about, language),
  };
}

/** The footer's filing numbers as markup, or null when none is configured. */
export function filingsView(config: LanderConfig): string | null {
  const { icp_filing, app_filing } = config.china ?? {};
  if (!icp_filing && !app_filing) return null;
  return filingsMarkup(icp_filing ? { text: icp_filing, href: BEIAN_URL } : null, app_filing ?? null);
}

/** The confirmation an APK download asks for where the page serves mainland China, else null. */
export function apkConfirmView(input: AboutInput): ApkConfirmView | null {
  if (!input.config.china?.mainland) return null;
  const { language } = input;
  const t = aboutTables[language];
  const about: AboutConfig = input.config.about ?? { screenshots: [], permissions: [] };
  const name = localize(input.item.name, language);
  return {
    title: t.confirmTitle(name),
    facts: [{ label: t.app, value: name }, ...facts(input, about)],
    privacy: about.privacy_url ? { label: t.privacy, href: about.privacy_url } : null,
    permissionsHeading: t.permissions,
    permissions: permissionsOf(about, language),
    download: t.download,
    cancel: t.cancel,
  };
}

/** What the hand-off carries of `about` and `china` for a page seen on `operatingSystem`. */
export function aboutParts({
  config,
  language,
  operatingSystem,
  apkParent,
  visitorScreen,
}: Omit<AboutInput, 'item'> & { operatingSystem: OperatingSystem; visitorScreen: boolean }): {
  about: string | null;
  apkConfirm: ApkConfirmView | null;
} {
  if (!visitorScreen) return { about: null, apkConfirm: null };
  const first = config.appData[0] as AppItem;
  const shown = appItemFor(config.appData, operatingSystem === 'iOS' ? 2 : 1) ?? first;
  // The APK is the Android app's, whichever device taps it (a desktop's store buttons include it).
  const android = appItemFor(config.appData, 1) ?? first;
  const block = aboutView({ config, language, item: shown, apkParent });
  const filings = filingsView(config);
  return {
    about: block || filings ? aboutMarkup(block && aboutBlockMarkup(block), filings) : null,
    apkConfirm: apkConfirmView({ config, language, item: android, apkParent }),
  };
}
