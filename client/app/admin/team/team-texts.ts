/** The team panel's words (docs/operators.md#roles), in the console's two languages. */
import type { Role } from '../../../../shared/roles.ts';
import type { Language } from '../../../../shared/texts.ts';

const en = {
  heading: 'Team',
  members: 'Members',
  membersHint:
    'While the app has no members, everyone signed in is its owner. Owners and admins manage the team; editors change the configuration, links and webhooks; analysts read everything else, viewers the figures and links.',
  subject: 'Email or subject',
  role: 'Role',
  save: 'Add or change',
  remove: 'Remove',
  noMembers: 'No members yet.',
  keys: 'API keys',
  keyName: 'Name',
  scopes: 'Scopes',
  expiresAt: 'Expires (optional)',
  expires: 'Expires',
  rateLimit: 'Calls per minute (optional)',
  makeKey: 'Make key',
  revoke: 'Revoke',
  revoked: 'revoked',
  noKeys: 'No keys yet.',
  never: 'never',
  keyOnce: 'API key — shown only now; copy it:',
  copy: 'Copy',
  copied: 'Copied',
  // English names the roles by their ids, as the API and docs/operators.md do.
  roles: { owner: 'owner', admin: 'admin', editor: 'editor', analyst: 'analyst', viewer: 'viewer' } as Record<
    Role,
    string
  >,
};

const zhCN: typeof en = {
  heading: '团队',
  members: '成员',
  membersHint:
    '应用还没有成员时，所有已登录的人都是所有者。所有者和管理员管理团队；编辑者修改配置、链接和 Webhook；分析员可查看其余全部内容，查看者只看数据和链接。',
  subject: '邮箱或主体标识',
  role: '角色',
  save: '添加或修改',
  remove: '移除',
  noMembers: '还没有成员。',
  keys: 'API 密钥',
  keyName: '名称',
  scopes: '权限范围',
  expiresAt: '过期时间（可选）',
  expires: '过期',
  rateLimit: '每分钟调用次数（可选）',
  makeKey: '创建密钥',
  revoke: '吊销',
  revoked: '已吊销',
  noKeys: '还没有密钥。',
  never: '永不',
  keyOnce: 'API 密钥——只显示这一次，请复制：',
  copy: '复制',
  copied: '已复制',
  roles: { owner: '所有者', admin: '管理员', editor: '编辑者', analyst: '分析员', viewer: '查看者' },
};

export type TeamTexts = typeof en;

/** The words in `language`. */
export const teamTexts = (language: Language): TeamTexts => (language === 'zh-CN' ? zhCN : en);
