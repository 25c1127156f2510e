/** The cohorts room's words (docs/operators.md#cohorts), in English and Chinese, with the shared ones. */
import type { CohortGrouping } from '../../../../shared/cohorts.ts';
import type { Language } from '../../../../shared/texts.ts';
import { type SharedTexts, sharedTexts } from '../shared/shared-texts.ts';

const en = {
  cohorts: 'Cohorts and retention',
  cohortsHint:
    'Installs by install day. A cohort’s day N is the share of its installs that sent any app event or open N days after their install day; value adds up what their app events carried.',
  groupBy: 'Compare by',
  groupings: {
    day: 'All installs',
    channel: 'Channel',
    inviter: 'Inviter',
    link: 'Link',
    variant: 'Variant',
    method: 'Install method',
  } satisfies Record<CohortGrouping, string>,
  daysAfter: 'Days after install',
  show: 'Show',
  retention: 'Retention',
  valueIn: (currency: string) => `Value per install, ${currency}`,
  triangle: 'Cohort triangle',
  triangleHint: 'Each row an install day, each column a day after the install; darker is more. Empty: not reached yet.',
  installDay: 'Install day',
  installs: 'Installs',
  dayN: (n: number) => `D${n}`,
  curves: 'Retention curves',
  curvesHint:
    'The same scale in every chart: the share of installs seen on each day after, cohorts that reached that day only.',
  noCohorts: 'No installs in this range yet.',
  none: '(none)',
  curveLabel: (group: string, installs: number) => `${group}: ${installs} installs`,
  retainedOn: (n: number, share: string) => `day ${n}: ${share}`,
};

export type CohortsWords = typeof en;
export type CohortsTexts = SharedTexts & CohortsWords;

const zhCN: CohortsWords = {
  cohorts: '同期群与留存',
  cohortsHint:
    '按安装日期分组。某同期群第 N 天的数值，是其安装中在安装日后第 N 天发送过任一应用事件或打开的比例；价值为其应用事件金额的累计。',
  groupBy: '对比维度',
  groupings: {
    day: '全部安装',
    channel: '渠道',
    inviter: '邀请人',
    link: '链接',
    variant: '变体',
    method: '安装方式',
  },
  daysAfter: '安装后天数',
  show: '显示',
  retention: '留存',
  valueIn: (currency) => `每安装价值（${currency}）`,
  triangle: '同期群三角表',
  triangleHint: '每行一个安装日期，每列安装后的一天；颜色越深数值越高。空白：尚未到达。',
  installDay: '安装日期',
  installs: '安装',
  dayN: (n) => `${n}日`,
  curves: '留存曲线',
  curvesHint: '各图刻度相同：安装后每一天仍活跃的安装比例，只计已到达该天的同期群。',
  noCohorts: '此时间范围内还没有安装。',
  none: '（无）',
  curveLabel: (group, installs) => `${group}：${installs} 个安装`,
  retainedOn: (n, share) => `第 ${n} 天：${share}`,
};

// Made once per language, so a panel's words stay the same object from render to render.
const tables: Record<Language, CohortsTexts> = {
  en: { ...sharedTexts('en'), ...en },
  'zh-CN': { ...sharedTexts('zh-CN'), ...zhCN },
};

/** The room's words and the shared ones in `language`. */
export function cohortsTexts(language: Language): CohortsTexts {
  return tables[language];
}
