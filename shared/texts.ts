/**
 * Every visible string, one table per language (PRODUCT.md §5.4). Screens read texts through
 * `texts(language)`; nothing user-visible is written inline in a component.
 */
import type { Language } from './handoff.ts';

const en = {
  appName: 'Lander Demo',
  description: 'Get the Lander Demo app for iPhone, Android and HarmonyOS.',
  downloadHeading: 'Download',
  landingHeading: 'You are invited',
  testHeading: 'Diagnostics',
  notFoundTitle: 'Page Not Found',
  serverErrorTitle: 'Internal Server Error',
  notFoundDescription: 'The page you asked for does not exist or has moved.',
  serverErrorDescription: 'Something went wrong on our side. Please try again in a moment.',
  backHome: 'Back to the download page',
  continueToLanding: 'Campaign page',
  invitedBy: 'Invited by',
  campaign: 'Campaign',
  deviceHeading: 'Device',
  deviceServer: 'Worker',
  deviceBrowser: 'Browser',
};

export type Texts = typeof en;

const zhCN: Texts = {
  appName: 'Lander 演示',
  description: '为 iPhone、安卓和鸿蒙设备下载 Lander 演示应用。',
  downloadHeading: '下载',
  landingHeading: '你收到了邀请',
  testHeading: '诊断',
  notFoundTitle: 'Page Not Found',
  serverErrorTitle: 'Internal Server Error',
  notFoundDescription: '你访问的页面不存在或已移动。',
  serverErrorDescription: '服务出了点问题，请稍后再试。',
  backHome: '返回下载页',
  continueToLanding: '活动页面',
  invitedBy: '邀请人',
  campaign: '活动',
  deviceHeading: '设备',
  deviceServer: '服务端',
  deviceBrowser: '浏览器',
};

const tables: Record<Language, Texts> = { en, 'zh-CN': zhCN };

export function texts(language: Language): Texts {
  return tables[language];
}

/** Picks `zh-CN` or `en` from an Accept-Language header or `navigator.language`. */
export function pickLanguage(acceptLanguage: string | null | undefined): Language {
  const ranges = (acceptLanguage ?? '')
    .slice(0, 512)
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranges) {
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}
