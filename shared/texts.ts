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
  notFoundTitle: '页面未找到',
  serverErrorTitle: '服务器内部错误',
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
