/** The Fraud panel's words (docs/fraud.md), in the console's two languages. */
import type { Language } from '../../../../shared/texts.ts';

const en = {
  heading: 'Fraud flags',
  hint: 'Flags mark installs, they never remove them. Pick an inviter and channel to see why each install was flagged.',
  inviter: 'Inviter',
  channel: 'Channel',
  installs: 'Installs',
  flagged: 'Flagged',
  none: '(none)',
  noGroups: 'No installs in this range.',
  anomalies: 'Anomalies',
  noAnomalies: 'No anomalies in this range.',
  day: 'Day',
  rule: 'Rule',
  reason: 'Why',
  flaggedInstalls: 'Flagged installs',
  noFlagged: 'No flagged installs here.',
  install: 'Install',
  at: 'When',
  method: 'Method',
  show: 'Show why',
  all: 'All inviters and channels',
  excluded: 'Left out of the counted installs:',
  rules: {
    click_injection: 'Click injection',
    too_fast: 'Too fast',
    self_referral: 'Self-referral',
    busy_network: 'Busy network',
    spike: 'Spike',
    too_fast_share: 'Too-fast share',
    network_share: 'One network',
  } as Record<string, string>,
};

const zhCN: typeof en = {
  heading: '作弊标记',
  hint: '标记只是标出安装，从不删除安装。选择邀请人和渠道，查看每个被标记安装的原因。',
  inviter: '邀请人',
  channel: '渠道',
  installs: '安装',
  flagged: '已标记',
  none: '（无）',
  noGroups: '此时间段没有安装。',
  anomalies: '异常',
  noAnomalies: '此时间段没有异常。',
  day: '日期',
  rule: '规则',
  reason: '原因',
  flaggedInstalls: '被标记的安装',
  noFlagged: '这里没有被标记的安装。',
  install: '安装',
  at: '时间',
  method: '方式',
  show: '查看原因',
  all: '全部邀请人和渠道',
  excluded: '不计入安装数：',
  rules: {
    click_injection: '点击注入',
    too_fast: '过快',
    self_referral: '自我邀请',
    busy_network: '网络过忙',
    spike: '激增',
    too_fast_share: '过快占比',
    network_share: '单一网络',
  },
};

export type FraudTexts = typeof en;

export function fraudTexts(language: Language): FraudTexts {
  return language === 'zh-CN' ? zhCN : en;
}
