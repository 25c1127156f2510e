/** The audit room's words (docs/operators.md#audit-log): the filters, the table, the change and the export. */
import type { Language } from '../../../../shared/texts.ts';
import { type SharedTexts, sharedTexts } from '../shared/shared-texts.ts';
import type { AuditEntryView, AuditKind } from './audit-api.ts';

const en = {
  heading: 'Audit log',
  hint: 'Every change made through the admin API, newest first: who, how they signed in, and what changed.',
  when: 'When',
  who: 'Who',
  via: 'Via',
  kind: 'Kind',
  action: 'Action',
  target: 'Target',
  change: 'Change',
  showChange: 'Show',
  field: 'Field',
  before: 'Before',
  after: 'After',
  noChange: 'No field changed.',
  anyKind: 'Any kind',
  from: 'From',
  until: 'Until',
  filter: 'Filter',
  clear: 'Clear',
  newer: 'Newer',
  older: 'Older',
  exportLog: 'Export (NDJSON)',
  noEntries: 'No entries match.',
  kinds: {
    config: 'Configuration',
    link: 'Link',
    'rule-set': 'Rule set',
    webhook: 'Webhook',
    'test-device': 'Test device',
    key: 'API key',
    member: 'Member',
    role: 'Role',
  } satisfies Record<AuditKind, string>,
  actions: { created: 'created', updated: 'updated', deleted: 'deleted', rotated: 'rotated' } satisfies Record<
    AuditEntryView['action'],
    string
  >,
  vias: { 'sign-in': 'sign-in', token: 'admin token' } as Record<string, string>,
};

type AuditWords = typeof en;
/** What the room's components read: its own words and the shared ones. */
export type AuditTexts = SharedTexts & AuditWords;

const zhCN: AuditWords = {
  heading: '审计日志',
  hint: '通过管理 API 做出的每一项更改，最新的在前：谁做的、如何登录的、改了什么。',
  when: '时间',
  who: '操作者',
  via: '方式',
  kind: '类别',
  action: '操作',
  target: '对象',
  change: '更改',
  showChange: '查看',
  field: '字段',
  before: '之前',
  after: '之后',
  noChange: '没有字段变化。',
  anyKind: '全部类别',
  from: '开始',
  until: '截止',
  filter: '筛选',
  clear: '清除',
  newer: '较新',
  older: '较早',
  exportLog: '导出（NDJSON）',
  noEntries: '没有符合条件的记录。',
  kinds: {
    config: '配置',
    link: '链接',
    'rule-set': '规则集',
    webhook: 'Webhook',
    'test-device': '测试设备',
    key: 'API 密钥',
    member: '成员',
    role: '角色',
  },
  actions: { created: '创建', updated: '修改', deleted: '删除', rotated: '更换密钥' },
  vias: { 'sign-in': '登录', token: '管理令牌' },
};

const tables: Record<Language, AuditTexts> = {
  en: { ...sharedTexts('en'), ...en },
  'zh-CN': { ...sharedTexts('zh-CN'), ...zhCN },
};

/** The room's words in `language`. */
export function auditTexts(language: Language): AuditTexts {
  return tables[language];
}
