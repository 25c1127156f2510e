/** The privacy room's words (docs/privacy.md#requests-erasure-and-access), in the console's two languages. */
import type { Language } from '../../../../shared/texts.ts';
import { type SharedTexts, sharedTexts } from '../shared/shared-texts.ts';
import type { IdentityType, PrivacyStatus, RequestType } from './privacy-api.ts';

const en = {
  heading: 'Privacy requests',
  hint: 'Erasure and access requests of the people who asked, newest first. An erasure is carried out within 24 hours; its signed receipt says what was removed from where.',
  fileHeading: 'File a request',
  type: 'Request',
  identityType: 'Identity',
  identityValue: 'Id, as the app or the page sent it',
  propertyId: 'Package or bundle id (for an install id)',
  callback: 'Status callback URL (optional)',
  file: 'File request',
  filed: 'Request filed:',
  callbackOnce: 'Callback signing secret — shown only now; copy it:',
  received: 'Received',
  status: 'Status',
  due: 'Due',
  completed: 'Completed',
  receipt: 'Receipt',
  noRequests: 'No requests yet.',
  showReceipt: 'Show',
  store: 'Store',
  where: 'Where',
  count: 'Rows',
  nothingFound: 'Nothing of the subject was kept.',
  kept: 'Kept on purpose',
  signed: 'Signed with Ed25519; check it with npm run privacy:verify.',
  downloadReceipt: 'Receipt (JSON)',
  downloadData: 'Data (JSON)',
  cancel: 'Cancel',
  actions: 'Actions',
  types: { erasure: 'Erasure', access: 'Access' } satisfies Record<RequestType, string>,
  identities: { install_id: 'Install id', user_id: 'User id', visitor_id: 'Visitor id' } satisfies Record<
    IdentityType,
    string
  >,
  statuses: {
    pending: 'pending',
    in_progress: 'in progress',
    completed: 'completed',
    cancelled: 'cancelled',
  } satisfies Record<PrivacyStatus['request_status'], string>,
};

type PrivacyWords = typeof en;
/** What the room's components read: its own words and the shared ones. */
export type PrivacyTexts = SharedTexts & PrivacyWords;

const zhCN: PrivacyWords = {
  heading: '隐私请求',
  hint: '个人提出的删除和访问请求，最新的在前。删除在 24 小时内完成，签名回执列明从何处删除了什么。',
  fileHeading: '提交请求',
  type: '请求',
  identityType: '标识类型',
  identityValue: '标识（应用或页面发送的原值）',
  propertyId: '包名或 Bundle ID（安装 ID 需要）',
  callback: '状态回调 URL（可选）',
  file: '提交',
  filed: '已提交请求：',
  callbackOnce: '回调签名密钥——只显示这一次，请复制：',
  received: '收到时间',
  status: '状态',
  due: '截止',
  completed: '完成时间',
  receipt: '回执',
  noRequests: '还没有请求。',
  showReceipt: '查看',
  store: '存储',
  where: '位置',
  count: '条数',
  nothingFound: '没有保存该对象的任何数据。',
  kept: '有意保留',
  signed: '以 Ed25519 签名；可用 npm run privacy:verify 校验。',
  downloadReceipt: '回执（JSON）',
  downloadData: '数据（JSON）',
  cancel: '取消',
  actions: '操作',
  types: { erasure: '删除', access: '访问' },
  identities: { install_id: '安装 ID', user_id: '用户 ID', visitor_id: '访客 ID' },
  statuses: { pending: '等待中', in_progress: '处理中', completed: '已完成', cancelled: '已取消' },
};

const tables: Record<Language, PrivacyTexts> = {
  en: { ...sharedTexts('en'), ...en },
  'zh-CN': { ...sharedTexts('zh-CN'), ...zhCN },
};

/** The room's words in `language`. */
export function privacyTexts(language: Language): PrivacyTexts {
  return tables[language];
}
