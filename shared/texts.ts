/**
 * The shell's visible strings, one table per language (docs/screens.md): titles, the error page, the
 * site's defaults. A screen keeps its own strings beside it, so they load with its chunk rather than
 * with every page. Nothing user-visible is written inline in a component's markup.
 */
import { languageRanges, primaryLanguage } from './device/locale.ts';

export type Language = 'zh-CN' | 'en';

const en = {
  appName: 'Lander Demo',
  description: 'Get the Lander Demo app for iPhone, Android and HarmonyOS.',
  landingHeading: 'You are invited',
  testHeading: 'Diagnostics',
  notFoundTitle: 'Page Not Found',
  serverErrorTitle: 'Internal Server Error',
  notFoundDescription: 'The page you asked for does not exist or has moved.',
  serverErrorDescription: 'Something went wrong on our side. Please try again in a moment.',
  backHome: 'Back to the download page',
};

export type Texts = typeof en;

const zhCN: Texts = {
  appName: 'Lander 演示',
  description: '为 iPhone、安卓和鸿蒙设备下载 Lander 演示应用。',
  landingHeading: '你收到了邀请',
  testHeading: '诊断',
  notFoundTitle: 'Page Not Found',
  serverErrorTitle: 'Internal Server Error',
  notFoundDescription: '你访问的页面不存在或已移动。',
  serverErrorDescription: '服务出了点问题，请稍后再试。',
  backHome: '返回下载页',
};

const tables: Record<Language, Texts> = { en, 'zh-CN': zhCN };

export function texts(language: Language): Texts {
  return tables[language];
}

/** Picks `zh-CN` or `en` from an Accept-Language header or `navigator.language`: the first range of either. */
export function pickLanguage(acceptLanguage: string | null | undefined): Language {
  for (const tag of languageRanges(acceptLanguage ?? '')) {
    const primary = primaryLanguage(tag);
    if (primary === 'zh') return 'zh-CN';
    if (primary === 'en') return 'en';
  }
  return 'en';
}

/**
 * The download page's strings (docs/screens.md), one table per language. Kept apart from the shell's
 * table above so only the worker imports them: it hands the visitor's language's strings to the
 * browser inside the download view, and the browser bundle stays within its budget.
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
  months: [],
};

const downloadTables: Record<Language, DownloadTexts> = { en: downloadEn, 'zh-CN': downloadZhCN };

export function downloadTexts(language: Language): DownloadTexts {
  return downloadTables[language];
}

/** `2026-11-18` as the visitor reads a date: `Nov 18, 2026` or `2026年11月18日`. */
export function formatDate(isoDate: string, language: Language): string {
  const [year = '', month = '', day = ''] = isoDate.split('-');
  const m = Number(month);
  const d = Number(day);
  if (language === 'zh-CN') return `${year}年${m}月${d}日`;
  return `${downloadEn.months[m - 1] ?? month} ${d}, ${year}`;
}
