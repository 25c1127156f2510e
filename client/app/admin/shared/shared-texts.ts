/** The words every room of the console uses (docs/screens.md): figures' names, a refused call, waiting. */
import type { Language } from '../../../../shared/texts.ts';

/**
 * What a refused call is, in one language: by its HTTP status (0: the server was not reached), or a
 * fault in the console itself (`null`). These are the words of a call that says nothing of its own,
 * and in Chinese the lead of what the API says (its messages are English, one language for every
 * client: docs/operators.md).
 */
interface FailureLeads {
  byStatus: Partial<Record<number, string>>;
  server: (status: number) => string;
  other: (status: number) => string;
  unexpected: string;
}

function leadOf(leads: FailureLeads, status: number | null): string {
  if (status === null) return leads.unexpected;
  return leads.byStatus[status] ?? (status >= 500 ? leads.server(status) : leads.other(status));
}

const EN_FAILURES: FailureLeads = {
  byStatus: {
    0: 'The server could not be reached',
    400: 'The request was refused',
    401: 'Sign in again: the token was refused',
    403: 'This is not allowed',
    404: 'Not found',
    409: 'In conflict with what is stored',
    413: 'Too large',
    429: 'Too many requests: try again in a moment',
  },
  server: (status) => `The server failed (HTTP ${status})`,
  other: (status) => `Refused (HTTP ${status})`,
  unexpected: 'The console failed',
};

const ZH_FAILURES: FailureLeads = {
  byStatus: {
    0: '无法连接服务器',
    400: '请求无效',
    401: '请重新登录：令牌被拒绝',
    403: '没有权限',
    404: '未找到',
    409: '与已有数据冲突',
    413: '内容过大',
    429: '请求过于频繁，请稍后再试',
  },
  server: (status) => `服务器出错（HTTP ${status}）`,
  other: (status) => `请求被拒绝（HTTP ${status}）`,
  unexpected: '控制台出错',
};

const en = {
  to: 'To',
  refresh: 'Refresh',
  views: 'Views',
  taps: 'Taps',
  none: '(none)',
  inviter: 'Inviter',
  channel: 'Channel',
  loading: 'Loading…',
  day: 'Day',
  link: 'Link',
  deviceHint: 'A keyed hash of the install id: the same for every call of one installation.',
  attributed: 'Attributed installs',
  organic: 'Organic installs',
  /**
   * A refused call, with its status (0: the server was not reached; null: a fault in the console)
   * and what it said (`detail`: the API's message, or the error's): in English, the API's own words
   * where it gave some.
   */
  refused: (status: number | null, detail?: string): string => {
    if (status !== null && status > 0 && detail) return detail;
    return detail ? `${leadOf(EN_FAILURES, status)} (${detail}).` : `${leadOf(EN_FAILURES, status)}.`;
  },
};

export type SharedTexts = typeof en;

const zhCN: SharedTexts = {
  to: '结束',
  refresh: '刷新',
  views: '浏览',
  taps: '点击',
  none: '（无）',
  inviter: '邀请人',
  channel: '渠道',
  loading: '加载中…',
  day: '日期',
  link: '链接',
  deviceHint: '安装 ID 的密钥哈希：同一次安装的每次调用都相同。',
  attributed: '归因安装',
  organic: '自然安装',
  // The lead in Chinese, then the API's exact words, which name the field and the reason.
  refused: (status, detail) =>
    detail ? `${leadOf(ZH_FAILURES, status)}：${detail}` : `${leadOf(ZH_FAILURES, status)}。`,
};

const tables: Record<Language, SharedTexts> = { en, 'zh-CN': zhCN };

/** The words in `language`. */
export function sharedTexts(language: Language): SharedTexts {
  return tables[language];
}
