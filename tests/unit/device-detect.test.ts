/** Worker-side detection (docs/device.md): browsers, desktops, iPads, crawlers, HarmonyOS, hints, locale. */
import { describe, expect, it } from 'vitest';
import { detectDevice, MAX_USER_AGENT } from '../../shared/device.ts';
import { BROWSER_AGENTS, CRAWLER_AGENTS, DESKTOP_AGENTS, IPAD_AGENT, IPAD_MAC_AGENT, UA } from '../fixtures/agents.ts';

describe('browsers', () => {
  it.each(BROWSER_AGENTS.map((b) => [`${b.browser} on ${b.os}`, b] as const))('%s is a browser, not in-app', (_, b) => {
    const device = detectDevice({ userAgent: b.agent });
    expect(device.inApp).toBeNull();
    expect(device.browser).toBe(b.browser);
    expect(device.operatingSystem).toBe(b.os);
    expect(device.mobile).toBe(b.mobile);
    expect(device.bot).toBe(false);
  });
});

describe('desktops', () => {
  it.each(DESKTOP_AGENTS.map((d) => [d.os, d.agent] as const))('%s is a PC, not mobile', (os, agent) => {
    const device = detectDevice({ userAgent: agent });
    expect(device).toMatchObject({ operatingSystem: 'PC', os, mobile: false, inApp: null, bot: false });
  });
});

describe('iPads', () => {
  it('takes an agent that says iPad for iOS and mobile', () => {
    expect(detectDevice({ userAgent: IPAD_AGENT })).toMatchObject({ operatingSystem: 'iOS', mobile: true });
  });

  it('cannot tell an iPad behind a Mac agent on the worker: a PC until the browser refines it', () => {
    expect(detectDevice({ userAgent: IPAD_MAC_AGENT })).toMatchObject({ operatingSystem: 'PC', mobile: false });
  });
});

describe('crawlers and link previewers', () => {
  it.each(Object.entries(CRAWLER_AGENTS))('%s is a bot and not in-app', (_, agent) => {
    const device = detectDevice({ userAgent: agent });
    expect(device.bot).toBe(true);
    expect(device.inApp).toBeNull();
  });

  it('does not take in-app agents that isbot’s list catches for bots', () => {
    // WeChat's `Process/toolsmp`, Alipay's `|` and the Sogou app all match isbot patterns.
    const agents = [
      'Mozilla/5.0 (Linux; Android 10; YAL-AL10; wv) Chrome/86.0 Mobile Safari/537.36 MicroMessenger/8.0.19.2080(0x28001368) Process/toolsmp',
      'Mozilla/5.0 (Linux; Android 10; VOG-AL00; wv) Chrome/105.0 Mobile Safari/537.36 AlipayDefined(nt:WIFI,ws:360|0|3.0) AlipayClient/10.3.50.9999',
      'Mozilla/5.0 (Linux; Android 9; KT20201188; wv) Chrome/89.0 Mobile Safari/537.36 SogouSearch Android1.0 version3.0',
    ];
    for (const agent of agents) expect(detectDevice({ userAgent: agent }).bot).toBe(false);
  });
});

describe('HarmonyOS', () => {
  it('lets OpenHarmony win over Android 10 on HarmonyOS 6 phones', () => {
    const device = detectDevice({
      userAgent:
        'Mozilla/5.0 (Phone; OpenHarmony 6.0; Android 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.36 ArkWeb/6.0.0.130 Mobile',
    });
    expect(device).toMatchObject({ operatingSystem: 'Harmony', os: 'HarmonyOS', osVersion: '6.0', mobile: true });
    expect(device.device_system_name).toBe('OpenHarmony');
  });

  it('lets OpenHarmony win over Windows NT on HarmonyOS PCs, which are not mobile', () => {
    const device = detectDevice({
      userAgent:
        'Mozilla/5.0 (PC; OpenHarmony 6.1; Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.0.0 Safari/537.36 ArkWeb/6.1.0.100 HuaweiBrowser/6.1.3.321',
    });
    expect(device).toMatchObject({ operatingSystem: 'Harmony', osVersion: '6.1', mobile: false });
  });

  it('recognises ArkWeb alone as HarmonyOS NEXT', () => {
    expect(detectDevice({ userAgent: 'Mozilla/5.0 (Tablet) AppleWebKit/537.36 ArkWeb/4.1.6.1' })).toMatchObject({
      operatingSystem: 'Harmony',
      mobile: true,
    });
  });

  it('recognises the Android-based tokens HarmonyOS, BDOS/1.0 (HarmonyOS …) and Hmos/', () => {
    const base =
      'Mozilla/5.0 (Linux; Android 12; NOH-AN00) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36';
    expect(detectDevice({ userAgent: `${base} HarmonyOS/4.0.3.601` })).toMatchObject({
      operatingSystem: 'Harmony',
      osVersion: '4.0.3.601',
      device_system_name: 'Android',
      device_version: '12',
    });
    expect(detectDevice({ userAgent: `${base} BDOS/1.0 (HarmonyOS 2.2.0)` }).osVersion).toBe('2.2.0');
    expect(detectDevice({ userAgent: `${base} Hmos/1` }).operatingSystem).toBe('Harmony');
  });

  it('does not take an agent with Huawei Browser on Android without a HarmonyOS token for HarmonyOS', () => {
    const agent = BROWSER_AGENTS.find((b) => b.browser === 'Huawei Browser')?.agent ?? '';
    expect(detectDevice({ userAgent: agent }).operatingSystem).toBe('Android');
  });
});

describe('client hints', () => {
  it('takes the model and the real Android version from hints when the agent is reduced', () => {
    const device = detectDevice({
      userAgent: UA.androidChromeReduced,
      hints: { mobile: true, platform: 'Android', model: 'Pixel 8', platformVersion: '14.0.0' },
    });
    expect(device).toMatchObject({ device_model: 'Pixel 8', osVersion: '14', device_version: '14', mobile: true });
  });

  it('maps a Windows platform version of 13 or more to Windows 11', () => {
    const agent = DESKTOP_AGENTS[0]?.agent ?? '';
    expect(
      detectDevice({ userAgent: agent, hints: { platform: 'Windows', platformVersion: '15.0.0' } }).osVersion,
    ).toBe('11');
    expect(
      detectDevice({ userAgent: agent, hints: { platform: 'Windows', platformVersion: '10.0.0' } }).osVersion,
    ).toBe('10');
  });

  it('ignores a platform version for another OS than the agent names', () => {
    const device = detectDevice({ userAgent: IPAD_AGENT, hints: { platform: 'Android', platformVersion: '14.0.0' } });
    expect(device.osVersion).toBe('17.5');
  });

  it('makes a device mobile on Sec-CH-UA-Mobile ?1 alone', () => {
    const linux = DESKTOP_AGENTS.find((d) => d.os === 'Linux')?.agent ?? '';
    expect(detectDevice({ userAgent: linux }).mobile).toBe(false);
    expect(detectDevice({ userAgent: linux, hints: { mobile: true } }).mobile).toBe(true);
  });

  it('falls back to the hinted platform when the agent names no OS', () => {
    expect(detectDevice({ userAgent: '', hints: { platform: 'Android', mobile: true } })).toMatchObject({
      operatingSystem: 'Android',
      mobile: true,
    });
  });
});

describe('mobile by phone brand', () => {
  it('counts a phone brand in the agent as mobile', () => {
    expect(detectDevice({ userAgent: 'Mozilla/5.0 (Linux; HUAWEI MLA-AL10) AppleWebKit/537.36' }).mobile).toBe(true);
  });

  it('does not take Huawei Browser or OPPO Browser for a phone brand', () => {
    expect(
      detectDevice({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) HuaweiBrowser/14.0 OppoBrowser/10.5' }).mobile,
    ).toBe(false);
  });
});

describe('the other fields', () => {
  it('fills model, system and locale fields from an iPhone agent and Accept-Language', () => {
    const device = detectDevice({
      userAgent: BROWSER_AGENTS.find((b) => b.browser === 'Mobile Safari')?.agent ?? '',
      referrer: 'https://example.com/from',
      acceptLanguage: 'zh-cn,zh;q=0.9,en;q=0.8',
    });
    expect(device).toMatchObject({
      operatingSystem: 'iOS',
      os: 'iOS',
      osVersion: '17.5',
      device_system_name: 'iOS',
      device_version: '17.5',
      device_model: 'iPhone',
      device_model_name: 'Apple iPhone',
      device_locale: 'zh-CN',
      language: 'zh',
      referrer: 'https://example.com/from',
      width: 0,
      height: 0,
    });
  });

  it('picks the locale with the highest weight and ignores malformed ranges', () => {
    expect(detectDevice({ userAgent: '', acceptLanguage: 'fr;q=0.5, en-us;q=0.9, *' }).device_locale).toBe('en-US');
    expect(detectDevice({ userAgent: '', acceptLanguage: '<script>, 12' }).device_locale).toBe('');
    expect(detectDevice({ userAgent: '', acceptLanguage: 'zh-hans-cn' }).device_locale).toBe('zh-Hans-CN');
  });

  it('answers an empty agent with a safe default', () => {
    expect(detectDevice({ userAgent: '' })).toMatchObject({
      userAgent: '',
      operatingSystem: 'PC',
      browser: '',
      mobile: false,
      inApp: null,
      bot: false,
    });
  });

  it(`cuts the agent at ${MAX_USER_AGENT} characters and the referrer at 2048`, () => {
    const device = detectDevice({ userAgent: `${IPAD_AGENT}${'x'.repeat(20_000)}`, referrer: 'r'.repeat(5000) });
    expect(device.userAgent).toHaveLength(MAX_USER_AGENT);
    expect(device.referrer).toHaveLength(2048);
    expect(device.operatingSystem).toBe('iOS');
  });

  it('detects a 16 KB hostile agent in bounded time: no regular expression sees more than 512 characters', () => {
    const hostile = `Mozilla/5.0 (${'Android ('.repeat(1800)}`;
    detectDevice({ userAgent: hostile });
    const start = performance.now();
    for (let i = 0; i < 20; i++) detectDevice({ userAgent: hostile });
    // Catastrophic backtracking over 16 KB would take seconds; the cut keeps it in milliseconds.
    expect((performance.now() - start) / 20).toBeLessThan(25);
  });
});
