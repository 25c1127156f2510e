/** The links room's words (docs/operators.md#the-console): the form, the table, the expiry and the QR code. */
import type { Language } from '../../../../shared/texts.ts';
import type { SharedTexts } from '../shared/shared-texts.ts';

const en = {
  links: 'Links',
  noLinks: 'No links yet: create the first one above.',
  slug: 'Slug',
  slugHint: 'optional, a-z 0-9 -',
  title: 'Display text',
  titleHint: 'shown to visitors, e.g. Spring invite',
  create: 'Create link',
  created: 'Created',
  copy: 'Copy',
  copied: 'Copied',
  qr: 'QR code',
  openFigures: 'Figures',
  slugTaken: 'That slug is taken: choose another.',
  expires: 'Expires',
  never: 'never',
  expired: 'expired',
  changeExpiry: 'Change',
  save: 'Save',
  neverExpire: 'Never expire',
  cancel: 'Cancel',
  downloadQr: 'Download the QR code as',
};

export type LinksWords = typeof en;
/** What the room's components read: its own words and the shared ones. */
export type LinksTexts = SharedTexts & LinksWords;

const zhCN: LinksWords = {
  links: '链接',
  noLinks: '还没有链接：在上方创建第一个。',
  slug: '短链标识',
  slugHint: '可选，a-z 0-9 -',
  title: '展示文案',
  titleHint: '访客可见，例如：春季邀请',
  create: '创建链接',
  created: '创建时间',
  copy: '复制',
  copied: '已复制',
  qr: '二维码',
  openFigures: '数据',
  slugTaken: '这个短链标识已被使用，请换一个。',
  expires: '过期时间',
  never: '永不过期',
  expired: '已过期',
  changeExpiry: '修改',
  save: '保存',
  neverExpire: '设为永不过期',
  cancel: '取消',
  downloadQr: '下载二维码：',
};

const tables: Record<Language, LinksWords> = { en, 'zh-CN': zhCN };

/** The words in `language`. */
export function linksWords(language: Language): LinksWords {
  return tables[language];
}
