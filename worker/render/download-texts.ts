import type { GuideView } from '../../shared/download-view.ts';
import type { Language } from '../../shared/texts.ts';

/**
 * The download page's strings (docs/screens.md), one table per language. Only the worker reads them:
 * it hands the visitor's language's strings to the browser inside the download view, so no table of
 * them travels in the browser bundle.
 */
const downloadEn = {
  appStore: 'Download on the App Store',
  apk: 'Download for Android',
  appGallery: 'Get it on AppGallery',
  yyb: 'Get it on Tencent App Store',
  store: 'Get it on the app store',
  appStoreShort: 'App Store',
  apkShort: 'Android',
  version: 'Version',
  size: 'Size',
  updated: 'Updated',
  features: 'Highlights',
  screenshots: 'Screenshots',
  qrHeading: 'Get it on your phone',
  qrCaption: 'Scan the code with your phone’s camera to open this page there.',
  qrAlt: 'QR code of this page',
  unavailable: 'Not available for this device yet.',
  guideTitle: 'Open this page in your browser to download',
  guideMenu: 'Tap ··· at the top right',
  guideBrowser: 'Choose “Open in Browser”',
  guideSafari: 'Choose “Open in Safari”',
  guideClose: 'Got it',
  openApp: 'Open the app',
  openGuideTitle: 'Open this page in your browser to open the app',
  getApp: 'Get {app}',
  openInApp: 'Open in {app}',
  alreadyHaveIt: 'Already have it? Open it',
  openInBrowserToDownload: 'Open in browser to download',
  openInBrowserToOpen: 'Open in browser to open the app',
  months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
};

export type DownloadTexts = typeof downloadEn;

const downloadZhCN: DownloadTexts = {
  appStore: '前往 App Store 下载',
  apk: '下载安卓版',
  appGallery: '前往华为应用市场下载',
  yyb: '前往应用宝下载',
  store: '前往应用商店下载',
  appStoreShort: 'App Store',
  apkShort: '安卓版',
  version: '版本',
  size: '大小',
  updated: '更新',
  features: '功能亮点',
  screenshots: '应用截图',
  qrHeading: '在手机上下载',
  qrCaption: '用手机相机扫描二维码，在手机上打开本页。',
  qrAlt: '本页二维码',
  unavailable: '暂不支持此设备。',
  guideTitle: '请在浏览器中打开本页以下载',
  guideMenu: '点击右上角的 ···',
  guideBrowser: '选择「在浏览器中打开」',
  guideSafari: '选择「在 Safari 中打开」',
  guideClose: '我知道了',
  openApp: '打开 App',
  openGuideTitle: '请在浏览器中打开本页以打开 App',
  getApp: '获取 {app}',
  openInApp: '在 {app} 中打开',
  alreadyHaveIt: '已安装？直接打开',
  openInBrowserToDownload: '在浏览器中打开以下载',
  openInBrowserToOpen: '在浏览器中打开以打开 App',
  months: [],
};

const downloadTables: Record<Language, DownloadTexts> = { en: downloadEn, 'zh-CN': downloadZhCN };

export function downloadTexts(language: Language): DownloadTexts {
  return downloadTables[language];
}

/** A string of the table with the app's name put in (`getApp`, `openInApp`). */
export function withApp(text: string, app: string): string {
  return text.replace('{app}', app);
}

/**
 * The open-in-browser guide (docs/screens.md), built here alone: what a tap shows in an in-app
 * browser that blocks the download (`download`) or the app's scheme (`open`).
 */
export function guideView(t: DownloadTexts, purpose: 'download' | 'open', operatingSystem: string): GuideView {
  return {
    title: purpose === 'download' ? t.guideTitle : t.openGuideTitle,
    steps: [t.guideMenu, operatingSystem === 'iOS' ? t.guideSafari : t.guideBrowser],
    close: t.guideClose,
  };
}

/** `2026-11-18` as the visitor reads a date: `Nov 18, 2026` or `2026年11月18日`. */
export function formatDate(isoDate: string, language: Language): string {
  const [year = '', month = '', day = ''] = isoDate.split('-');
  const m = Number(month);
  const d = Number(day);
  if (language === 'zh-CN') return `${year}年${m}月${d}日`;
  return `${downloadEn.months[m - 1] ?? month} ${d}, ${year}`;
}
