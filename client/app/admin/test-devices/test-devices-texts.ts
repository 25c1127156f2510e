/** The test devices form's words (docs/attribution.md, "Test devices"), in the console's two languages. */
import type { Language } from '../../../../shared/texts.ts';

const en = {
  heading: 'Test devices',
  hint: 'Only a registered installation’s test: true is answered as a test, with why. Its debug log names its install id.',
  app: 'Test device’s app (package or bundle id)',
  installId: 'Test device’s install id',
  label: 'Name (optional)',
  register: 'Register',
  forget: 'Forget',
  none: 'No test devices yet.',
  device: 'Device',
  registered: (id: string) => `Registered: device ${id}.`,
};

const zhCN: typeof en = {
  heading: '测试设备',
  hint: '只有已登记安装的 test: true 会按测试作答并说明原因。其调试日志会给出安装 ID。',
  app: '测试设备的应用（包名或 Bundle ID）',
  installId: '测试设备的安装 ID',
  label: '名称（可选）',
  register: '登记',
  forget: '移除',
  none: '还没有测试设备。',
  device: '设备',
  registered: (id: string) => `已登记：设备 ${id}。`,
};

export type TestDevicesTexts = typeof en;

/** The words in `language`. */
export const testDevicesTexts = (language: Language): TestDevicesTexts => (language === 'zh-CN' ? zhCN : en);
