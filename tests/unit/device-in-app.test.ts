/** The in-app table (docs/device.md, docs/screens.md): every entry recognised, with its policy per OS. */
import { describe, expect, it } from 'vitest';
import { detectDevice, detectInApp, IN_APP_TABLE } from '../../shared/device.ts';
import { IN_APP_AGENTS } from '../fixtures/agents.ts';

const WECHAT_IOS = (version: string): string =>
  `Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/${version}(0x18003129) NetType/WIFI`;

const agentOf = (app: string, os = ''): string =>
  IN_APP_AGENTS.find((a) => a.app === app && (!os || a.os === os))?.agent ?? '';

describe('the in-app table', () => {
  it('has a test agent for every entry that sends a token', () => {
    const tested = new Set(IN_APP_AGENTS.map((agent) => agent.app));
    const untested = IN_APP_TABLE.filter((entry) => entry.match && !tested.has(entry.name)).map((e) => e.name);
    expect(untested).toEqual([]);
  });

  it('covers every app docs/device.md names', () => {
    const names = IN_APP_TABLE.map((entry) => entry.name);
    const required = [
      ['WeChat', 'QQ', 'WhatsApp', 'LINE', 'KakaoTalk', 'Telegram', 'Messenger', 'Viber', 'Zalo', 'DingTalk', 'WeCom'],
      ['Alipay', 'PayPal'],
      ['Weibo', 'Douyin', 'TikTok', 'Kuaishou', 'Xiaohongshu', 'Facebook', 'Instagram', 'Threads', 'Snapchat', 'X'],
      ['LinkedIn', 'Reddit', 'Pinterest', 'Baidu', 'Google', 'Bing', 'Quark', 'Sogou', 'NAVER'],
    ].flat();
    expect(required.filter((app) => !names.includes(app))).toEqual([]);
  });

  it.each(IN_APP_AGENTS.map((a) => [`${a.app} on ${a.os}`, a] as const))('recognises %s', (_, a) => {
    const device = detectDevice({ userAgent: a.agent });
    expect(device.inApp?.name).toBe(a.app);
    expect(device.inApp?.category).toBe(a.category);
    expect(device.operatingSystem).toBe(a.os);
    expect(device.browser).toBe(a.app);
    expect(device.mobile).toBe(true);
    expect(device.bot).toBe(false);
  });

  it('reads the app version from its token', () => {
    expect(detectDevice({ userAgent: WECHAT_IOS('8.0.49') }).inApp?.version).toBe('8.0.49');
    expect(detectDevice({ userAgent: agentOf('Weibo') }).inApp?.version).toBe('14.5.2');
    expect(detectDevice({ userAgent: agentOf('Douyin') }).inApp?.version).toBe('30.2.0');
  });

  it('blocks downloads and schemes in WeChat and QQ on Android', () => {
    for (const app of ['WeChat', 'QQ']) {
      expect(detectDevice({ userAgent: agentOf(app, 'Android') }).inApp).toMatchObject({
        blocksDownloads: true,
        blocksSchemes: true,
      });
    }
  });

  it('lets App Store links through in iOS WeChat but not custom schemes', () => {
    expect(detectDevice({ userAgent: WECHAT_IOS('8.0.49') }).inApp).toMatchObject({
      blocksDownloads: false,
      blocksSchemes: true,
    });
  });

  it('allows Universal Links from a tap in iOS WeChat from 7.0.5 on', () => {
    expect(detectDevice({ userAgent: WECHAT_IOS('7.0.4') }).inApp?.universalLinks).toBe(false);
    expect(detectDevice({ userAgent: WECHAT_IOS('7.0.5') }).inApp?.universalLinks).toBe(true);
    expect(detectDevice({ userAgent: WECHAT_IOS('8.0.49') }).inApp?.universalLinks).toBe(true);
  });

  it('never claims Universal Links for Android WeChat', () => {
    expect(detectDevice({ userAgent: agentOf('WeChat', 'Android') }).inApp?.universalLinks).toBe(false);
  });

  it('holds back App Store links and schemes in Douyin, Kuaishou and Xiaohongshu on iOS', () => {
    for (const [app, token] of [
      ['Douyin', 'aweme_31.9.0'],
      ['Kuaishou', 'Kwai/12.4.40'],
      ['Xiaohongshu', 'XiaoHongShu/8.40.0'],
    ]) {
      expect(detectInApp(`Mozilla/5.0 (iPhone) ${token}`, 'iOS')).toMatchObject({
        name: app,
        blocksDownloads: true,
        blocksSchemes: true,
      });
    }
  });

  it('lets the Baidu app open its scheme and download', () => {
    expect(detectInApp(agentOf('Baidu'), 'Android')).toMatchObject({ blocksDownloads: false, blocksSchemes: false });
  });

  it('uses the Android policy for HarmonyOS and blocks nothing on a PC', () => {
    const agent = 'Mozilla/5.0 MicroMessenger/8.0.50';
    expect(detectInApp(agent, 'Harmony')).toMatchObject({ blocksDownloads: true, blocksSchemes: true });
    expect(detectInApp(agent, 'PC')).toMatchObject({ blocksDownloads: false, blocksSchemes: false });
  });

  it('tells WeCom from WeChat, and Messenger and Threads from Facebook and Instagram', () => {
    expect(detectDevice({ userAgent: agentOf('WeCom', 'iOS') }).inApp?.name).toBe('WeCom');
    expect(detectDevice({ userAgent: agentOf('Messenger') }).inApp?.name).toBe('Messenger');
    expect(detectDevice({ userAgent: agentOf('Threads') }).inApp?.name).toBe('Threads');
  });

  it('takes Telegram only from the browser signal, and only when no token matched', () => {
    const plain =
      'Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0 Mobile Safari/537.36';
    expect(detectInApp(plain, 'Android')).toBeNull();
    expect(detectInApp(plain, 'Android', true)?.name).toBe('Telegram');
    expect(detectInApp(`${plain} [FB_IAB/FB4A;FBAV/470.0;]`, 'Android', true)?.name).toBe('Facebook');
  });

  it('does not take the WhatsApp link previewer for the in-app browser', () => {
    expect(detectDevice({ userAgent: 'WhatsApp/2.23.20.0' }).inApp).toBeNull();
  });
});
