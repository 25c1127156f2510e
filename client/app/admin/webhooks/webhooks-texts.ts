/** The webhooks room's words (docs/webhooks.md#the-console): the endpoints, their actions and the delivery log. */
import type { Language } from '../../../../shared/texts.ts';
import type { SharedTexts } from '../shared/shared-texts.ts';

const en = {
  webhooks: 'Webhooks',
  endpointUrl: 'Endpoint URL',
  description: 'Description',
  eventTypes: 'Event types',
  addEndpoint: 'Add endpoint',
  noEndpoints: 'No endpoints yet: add the first one above.',
  secretOnce: 'Signing secret — shown only now; copy it to your backend:',
  state: 'State',
  enabled: 'Enabled',
  disabledByYou: 'Disabled',
  disabledFailing: 'Disabled after 3 days of failures',
  disabledGone: 'Disabled: the receiver answered 410 Gone',
  oldSecretSigns: 'The old secret also signs every delivery until',
  failingSince: 'failing since',
  delivered: 'Delivered',
  pending: 'Pending',
  failed: 'Failed',
  dead: 'Dead letters',
  enable: 'Enable',
  disable: 'Disable',
  sendTest: 'Send test',
  rotate: 'Rotate secret',
  remove: 'Delete',
  showLog: 'Delivery log',
  deliveryLog: 'Delivery log of',
  noAttempts: 'No attempts yet.',
  time: 'Time',
  type: 'Event',
  attempt: 'Attempt',
  status: 'Status',
  latency: 'Latency',
  error: 'Error',
  resend: 'Resend',
  resendRange: 'Resend what was not delivered from',
  resent: 'Queued again:',
  testDelivered: 'Test delivered',
  testFailed: 'Test failed',
  endpointTaken: 'Another endpoint already has that URL.',
};

export type WebhooksWords = typeof en;
/** What the room's components read: its own words and the shared ones. */
export type WebhooksTexts = SharedTexts & WebhooksWords;

const zhCN: WebhooksWords = {
  webhooks: 'Webhooks',
  endpointUrl: '接收地址',
  description: '说明',
  eventTypes: '事件类型',
  addEndpoint: '添加接收地址',
  noEndpoints: '还没有接收地址：在上方添加第一个。',
  secretOnce: '签名密钥——只显示这一次，请复制到你的后端：',
  state: '状态',
  enabled: '已启用',
  disabledByYou: '已停用',
  disabledFailing: '连续失败 3 天，已停用',
  disabledGone: '接收方回复 410 Gone，已停用',
  oldSecretSigns: '旧密钥继续为每次投递签名，直到',
  failingSince: '失败开始于',
  delivered: '已送达',
  pending: '待发送',
  failed: '失败',
  dead: '死信',
  enable: '启用',
  disable: '停用',
  sendTest: '发送测试',
  rotate: '更换密钥',
  remove: '删除',
  showLog: '投递记录',
  deliveryLog: '投递记录：',
  noAttempts: '还没有投递。',
  time: '时间',
  type: '事件',
  attempt: '次数',
  status: '状态码',
  latency: '耗时',
  error: '错误',
  resend: '重发',
  resendRange: '重发未送达的消息，时间从',
  resent: '已重新排队：',
  testDelivered: '测试已送达',
  testFailed: '测试失败',
  endpointTaken: '已有接收地址使用这个 URL。',
};

const tables: Record<Language, WebhooksWords> = { en, 'zh-CN': zhCN };

/** The words in `language`. */
export function webhooksWords(language: Language): WebhooksWords {
  return tables[language];
}
