/** The conversions room's words (docs/conversions.md#admin-api), in the console's two languages. */
import type { ConversionPlatform } from '../../../../shared/conversions.ts';
import type { Language } from '../../../../shared/texts.ts';
import { type SharedTexts, sharedTexts } from '../shared/shared-texts.ts';

const en = {
  heading: 'Conversions out',
  hint: 'The ad platforms this app reports its installs and events to, only for installs whose consent allows it. A token is kept for sending and never shown again.',
  addHeading: 'Add a destination',
  editHeading: 'Edit destination',
  platform: 'Platform',
  name: 'Name',
  token: 'Access token or API secret',
  tokenKept: 'Leave empty to keep the current one',
  events: 'Event names (one "lander=platform" a line)',
  add: 'Add destination',
  save: 'Save',
  cancelEdit: 'Cancel',
  noDestinations: 'No destinations yet: add the first one above.',
  destination: 'Destination',
  state: 'State',
  enabled: 'Enabled',
  disabled: 'Disabled',
  counts: 'Delivered / pending / failed / dead',
  actions: 'Actions',
  edit: 'Edit',
  enable: 'Enable',
  disable: 'Disable',
  sendTest: 'Send test event',
  showLog: 'Delivery log',
  remove: 'Delete',
  testDelivered: 'Test event delivered',
  testFailed: 'Test event failed',
  logOf: 'Delivery log of',
  noAttempts: 'No attempts yet.',
  time: 'Time',
  event: 'Event',
  attempt: 'Attempt',
  status: 'Status',
  outcome: 'Outcome',
  latency: 'Latency',
  error: 'Error',
  platforms: {
    meta: 'Meta Conversions API',
    tiktok: 'TikTok Events API',
    ga4: 'Google Analytics 4',
    oceanengine: 'Ocean Engine (巨量引擎)',
    postback: 'Postback (any network)',
  } satisfies Record<ConversionPlatform, string>,
  fields: {
    datasetId: 'Dataset id',
    appId: 'Meta app id',
    tiktokAppId: 'TikTok App ID',
    measurementId: 'Measurement id (G-…)',
    url: 'URL template, e.g. https://…?click={clickid}&event={event}',
    method: 'Method',
    body: 'Body template (POST)',
  } as Record<string, string>,
  outcomes: { delivered: 'delivered', retry: 'will retry', failed: 'refused', dead: 'gave up' } as Record<
    string,
    string
  >,
};

export type ConversionsWords = typeof en;
export type ConversionsTexts = SharedTexts & ConversionsWords;

const zhCN: ConversionsWords = {
  heading: '转化回传',
  hint: '本应用向这些广告平台回传安装和事件，仅限用户同意允许的安装。令牌只用于发送，保存后不再显示。',
  addHeading: '添加回传目标',
  editHeading: '编辑回传目标',
  platform: '平台',
  name: '名称',
  token: '访问令牌或 API 密钥',
  tokenKept: '留空则保留当前令牌',
  events: '事件名称（每行一个“lander=平台”）',
  add: '添加目标',
  save: '保存',
  cancelEdit: '取消',
  noDestinations: '还没有回传目标：在上方添加第一个。',
  destination: '目标',
  state: '状态',
  enabled: '已启用',
  disabled: '已停用',
  counts: '已送达 / 待发送 / 失败 / 死信',
  actions: '操作',
  edit: '编辑',
  enable: '启用',
  disable: '停用',
  sendTest: '发送测试事件',
  showLog: '投递记录',
  remove: '删除',
  testDelivered: '测试事件已送达',
  testFailed: '测试事件失败',
  logOf: '投递记录：',
  noAttempts: '还没有投递。',
  time: '时间',
  event: '事件',
  attempt: '次数',
  status: '状态码',
  outcome: '结果',
  latency: '耗时',
  error: '错误',
  platforms: {
    meta: 'Meta 转化 API',
    tiktok: 'TikTok 事件 API',
    ga4: 'Google Analytics 4',
    oceanengine: '巨量引擎',
    postback: '通用回传（任意渠道）',
  },
  fields: {
    datasetId: '数据集 ID',
    appId: 'Meta 应用 ID',
    tiktokAppId: 'TikTok 应用 ID',
    measurementId: '衡量 ID（G-…）',
    url: 'URL 模板，如 https://…?click={clickid}&event={event}',
    method: '请求方法',
    body: '请求体模板（POST）',
  },
  outcomes: { delivered: '已送达', retry: '将重试', failed: '被拒绝', dead: '已放弃' },
};

const tables: Record<Language, ConversionsWords> = { en, 'zh-CN': zhCN };

/** The room's words and the shared ones, in `language`. */
export function conversionsTexts(language: Language): ConversionsTexts {
  return { ...sharedTexts(language), ...tables[language] };
}
