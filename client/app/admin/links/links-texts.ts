/** The links room's words (docs/operators.md#the-console): the form, the table, the expiry, the QR code, the experiment, the password and the rules. */
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
  qrStyle: 'QR code style',
  qrForeground: 'Foreground',
  qrBackground: 'Background',
  qrMargin: 'Quiet zone (modules)',
  qrLogo: 'App logo in the centre',
  qrPreview: 'Preview of the QR code of',
  qrContrast: (ratio: string, least: number): string =>
    `Too little contrast for a scanner (${ratio}:1, at least ${least}:1 and a clearly darker foreground): choose a darker foreground or a lighter background. The codes keep the last style that scans.`,
  qrLighter: 'The foreground must be darker than the background. The codes keep the last style that scans.',
  experiment: 'Variants',
  noWinnerYet: 'no winner yet',
  wins: (name: string, figures: string): string => `${name} wins, ${figures}`,
  winsOver: (control: string, name: string, figures: string): string => `${control} wins over ${name}, ${figures}`,
  outcomeOf: (outcome: string): string =>
    outcome === 'installs' ? 'Installs per visitor' : `${outcome.replace(/^event:/, '')} per visitor`,
  access: 'Expiry, password, rules',
  password: 'Password',
  passwordHint: 'optional, 8 to 128 characters',
  passwordSet: 'Password set',
  noPassword: 'No password',
  setPassword: 'Set password',
  removePassword: 'Remove password',
  rules: 'Rules',
  rulesHint: 'One rule per line: condition => store, page [variant], url <https URL> or deep-link </path>.',
  saveRules: 'Save rules',
  rulesSaved: 'Saved',
  ruleLine: (line: number, reason: string): string => `Line ${line}: ${reason}`,
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
  qrStyle: '二维码样式',
  qrForeground: '前景色',
  qrBackground: '背景色',
  qrMargin: '留白（模块数）',
  qrLogo: '中间放应用图标',
  qrPreview: '二维码预览：',
  qrContrast: (ratio, least) =>
    `对比度不足，扫码难以识别（${ratio}:1，至少需要 ${least}:1 且前景色明显更深）：请选更深的前景色或更浅的背景色。二维码仍用上一个可扫描的样式。`,
  qrLighter: '前景色必须比背景色深。二维码仍用上一个可扫描的样式。',
  experiment: '变体',
  noWinnerYet: '尚无胜出者',
  wins: (name, figures) => `${name} 胜出，${figures}`,
  winsOver: (control, name, figures) => `${control} 胜过 ${name}，${figures}`,
  outcomeOf: (outcome) => (outcome === 'installs' ? '每位访客的安装' : `每位访客的 ${outcome.replace(/^event:/, '')}`),
  access: '过期、密码与规则',
  password: '密码',
  passwordHint: '可选，8 到 128 个字符',
  passwordSet: '已设密码',
  noPassword: '无密码',
  setPassword: '设置密码',
  removePassword: '移除密码',
  rules: '规则',
  rulesHint: '每行一条规则：条件 => store、page [变体]、url <https 地址> 或 deep-link </路径>。',
  saveRules: '保存规则',
  rulesSaved: '已保存',
  ruleLine: (line, reason) => `第 ${line} 行：${reason}`,
};

const tables: Record<Language, LinksWords> = { en, 'zh-CN': zhCN };

/** The words in `language`. */
export function linksWords(language: Language): LinksWords {
  return tables[language];
}
