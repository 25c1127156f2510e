/**
 * The console's strings (docs/screens.md), in its own chunk with it: the sign-in's, the range's and
 * the export's, and every room's own words (`funnel/funnel-texts.ts`, `links/links-texts.ts`…) put
 * together once per language, so a panel gets one object that stays the same from render to render.
 */
import type { Language } from '../../../shared/texts.ts';
import { SHELL_WORDS } from './admin-shell.tsx';
import { type FunnelWords, funnelWords } from './funnel/funnel-texts.ts';
import { type InstallsWords, installsWords } from './installs/installs-texts.ts';
import { type LinksWords, linksWords } from './links/links-texts.ts';
import { type SharedTexts, sharedTexts } from './shared/shared-texts.ts';
import { type StorePostbacksWords, storePostbacksWords } from './store-postbacks/store-postbacks-texts.ts';
import { type WebhooksWords, webhooksWords } from './webhooks/webhooks-texts.ts';

/** The sign-in's, the range's and the export's words. */
const en = {
  heading: SHELL_WORDS.en.heading,
  /** The app switcher's label (docs/routes.md#apps). */
  app: 'App',
  signInHeading: 'Sign in',
  tokenLabel: 'Admin token',
  signIn: 'Sign in',
  signOut: 'Sign out',
  wrongToken: 'That token was refused.',
  /** With OpenID Connect configured (docs/operators.md#openid-connect): the link to the provider's sign-in. */
  signInWithProvider: 'Sign in with your organisation',
  orToken: 'Or with the admin token:',
  checking: SHELL_WORDS.en.checking,
  unconfigured: 'The admin API is not configured on this worker: set the ADMIN_TOKEN secret.',
  from: 'From',
  /** Beside the range: the zone its days are in (docs/operators.md#days-and-time-zones). */
  timeZone: 'Time zone',
  /**
   * Dates from the address or the date fields that the stats cannot read (docs/operators.md#ranges):
   * why, in the bounds' own words, and the range shown instead.
   */
  rangeRefused: (reason: string, shown: { from: string; to: string }): string =>
    `Those dates cannot be shown (${reason}): showing ${shown.from} to ${shown.to}.`,
  exportCsv: 'Export CSV',
  exportBy: 'CSV rows per',
  apiReference: 'API reference',
};

type DashboardWords = typeof en;

const zhCN: DashboardWords = {
  heading: SHELL_WORDS['zh-CN'].heading,
  app: '应用',
  signInHeading: '登录',
  tokenLabel: '管理令牌',
  signIn: '登录',
  signOut: '退出',
  wrongToken: '令牌无效。',
  signInWithProvider: '使用组织账号登录',
  orToken: '或使用管理令牌：',
  checking: SHELL_WORDS['zh-CN'].checking,
  unconfigured: '此 Worker 未配置管理 API：请设置 ADMIN_TOKEN 密钥。',
  from: '开始',
  timeZone: '时区',
  rangeRefused: (reason, shown) => `无法显示这些日期（${reason}），显示的是 ${shown.from} 至 ${shown.to}。`,
  exportCsv: '导出 CSV',
  exportBy: '导出维度',
  apiReference: 'API 文档',
};

/** Every word the console's panels read, in one language. */
export type AdminTexts = SharedTexts &
  FunnelWords &
  LinksWords &
  WebhooksWords &
  InstallsWords &
  StorePostbacksWords &
  DashboardWords;

function textsOf(language: Language, own: DashboardWords): AdminTexts {
  return {
    ...sharedTexts(language),
    ...funnelWords(language),
    ...linksWords(language),
    ...webhooksWords(language),
    ...installsWords(language),
    ...storePostbacksWords(language),
    ...own,
  };
}

const tables: Record<Language, AdminTexts> = { en: textsOf('en', en), 'zh-CN': textsOf('zh-CN', zhCN) };

export function adminTexts(language: Language): AdminTexts {
  return tables[language];
}
