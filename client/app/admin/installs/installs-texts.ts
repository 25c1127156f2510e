/** The test installs room's words (docs/operators.md): the answers test devices got and the look-up of one install. */
import type { Language } from '../../../../shared/texts.ts';
import type { SharedTexts } from '../shared/shared-texts.ts';

const en = {
  testInstalls: 'Test installs',
  testInstallsHint: 'Installs and opens from test devices (test: true), newest first. Never counted above.',
  noTestInstalls: 'No test installs yet: run npm run try-install, or set the SDK’s test option.',
  notMatched: 'Not matched:',
  matchedBy: 'Matched by',
  kindInstall: 'Install',
  kindOpen: 'Open',
  device: 'Device',
  repeat: 'retry',
  appId: 'App (package or bundle id)',
  installId: 'Install id',
  lookUp: 'Why this answer?',
};

export type InstallsWords = typeof en;
/** What the room's components read: its own words and the shared ones. */
export type InstallsTexts = SharedTexts & InstallsWords;

const zhCN: InstallsWords = {
  testInstalls: '测试安装',
  testInstallsHint: '测试设备（test: true）的安装和打开，最新的在前。不计入上方数据。',
  noTestInstalls: '还没有测试安装：运行 npm run try-install，或打开 SDK 的测试选项。',
  notMatched: '未匹配：',
  matchedBy: '匹配方式',
  kindInstall: '安装',
  kindOpen: '打开',
  device: '设备',
  repeat: '重试',
  appId: '应用（包名或 Bundle ID）',
  installId: '安装 ID',
  lookUp: '为何如此匹配？',
};

const tables: Record<Language, InstallsWords> = { en, 'zh-CN': zhCN };

/** The words in `language`. */
export function installsWords(language: Language): InstallsWords {
  return tables[language];
}
