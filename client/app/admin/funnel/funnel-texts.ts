/** The funnel room's words (docs/operators.md): the headline, the charts, the tables and a drill-down. */
import type { Language } from '../../../../shared/texts.ts';
import type { MatchMethod } from '../../../../shared/webhooks.ts';
import type { SharedTexts } from '../shared/shared-texts.ts';

const en = {
  funnel: 'Funnel per channel',
  daily: 'Day by day',
  inviters: 'Top inviters',
  visitors: 'Visitors',
  installs: 'Installs',
  events: 'Events',
  noData: 'Nothing counted in this range yet.',
  tapRate: 'Tap rate: taps ÷ views',
  installRate: 'Install rate: attributed installs ÷ taps',
  tapRateShort: 'Tap rate (÷ views)',
  installRateShort: 'Install rate (÷ taps)',
  /** A headline rate with what it divides by, beside its count: `20.0% of views`. */
  rateOf: (rate: string, figure: 'taps' | 'attributed'): string => `${rate} of ${figure === 'taps' ? 'views' : 'taps'}`,
  /**
   * A change against the previous period of the same length, written on screen with the period
   * named (docs/operators.md#compared-with-the-previous-period): `+12.0% vs the 7 days before`.
   */
  versus: (change: string, days: number): string => `${change} vs the ${days === 1 ? 'day' : `${days} days`} before`,
  /** A figure that was 0 in the previous period. */
  newVersus: (days: number): string => `new: none in the ${days === 1 ? 'day' : `${days} days`} before`,
  channels: 'Channels',
  methods: 'Install methods',
  /** Each install method by its source (docs/attribution.md#deterministic-sources). */
  methodNames: {
    clipboard: 'clipboard',
    referrer: 'Play referrer',
    apk: 'stamped APK',
    harmony: 'App Linking',
    meta: 'Meta referrer',
    appgallery: 'AppGallery referrer',
    probabilistic: 'probabilistic',
  } as Record<MatchMethod, string>,
  appEvents: 'App events (÷ installs)',
  revenue: 'Revenue',
  /** The sum in the reporting currency, at the operator's rates (docs/operators.md#revenue). */
  reportedAs: (money: string) => `≈ ${money} at your rates`,
  /** The currencies the rates do not name, left out of that sum. */
  withoutRate: (codes: string) => `no rate for ${codes}`,
  /** The locale money is written in. */
  moneyLocale: 'en-US',
  unmatchedReasons: 'Not matched, by reason',
  close: 'Close',
  os: 'OS',
  inapp: 'In-app browser',
  flags: 'Fraud flags',
  flagged: 'flagged',
  excluded: 'excluded from counted installs',
  noFlags: 'No install flagged.',
};

export type FunnelWords = typeof en;
/** What the room's components read: its own words and the shared ones. */
export type FunnelTexts = SharedTexts & FunnelWords;

const zhCN: FunnelWords = {
  funnel: '各渠道漏斗',
  daily: '每日',
  inviters: '邀请人排行',
  visitors: '访客',
  installs: '安装',
  events: '事件',
  noData: '此时间范围内还没有数据。',
  tapRate: '点击率：点击 ÷ 浏览',
  installRate: '安装率：归因安装 ÷ 点击',
  tapRateShort: '点击率（÷ 浏览）',
  installRateShort: '安装率（÷ 点击）',
  rateOf: (rate, figure) => `${figure === 'taps' ? '浏览' : '点击'}的 ${rate}`,
  versus: (change, days) => `较前 ${days === 1 ? '一' : days} 天 ${change}`,
  newVersus: (days) => `新增：前 ${days === 1 ? '一' : days} 天为 0`,
  channels: '渠道',
  methods: '安装方式',
  methodNames: {
    clipboard: '剪贴板',
    referrer: 'Play 引荐',
    apk: 'APK 戳记',
    harmony: '鸿蒙 App Linking',
    meta: 'Meta 引荐',
    appgallery: '华为应用市场引荐',
    probabilistic: '概率匹配',
  },
  appEvents: '应用事件（÷ 安装）',
  revenue: '收入',
  reportedAs: (money) => `按你的汇率约 ${money}`,
  withoutRate: (codes) => `${codes} 没有汇率`,
  moneyLocale: 'zh-CN',
  unmatchedReasons: '未匹配原因',
  close: '关闭',
  os: '系统',
  inapp: '内置浏览器',
  flags: '作弊标记',
  flagged: '被标记',
  excluded: '不计入计数安装',
  noFlags: '没有被标记的安装。',
};

const tables: Record<Language, FunnelWords> = { en, 'zh-CN': zhCN };

/** The words in `language`. */
export function funnelWords(language: Language): FunnelWords {
  return tables[language];
}
