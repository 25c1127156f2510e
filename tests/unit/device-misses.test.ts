/**
 * The classes of detection misses docs/device.md describes, one rule each: names compared
 * case-insensitively, an explicit Android version over a model name, Kindle, in-app tokens that must
 * be real webview tokens, token variants, bot words inside a device model, handhelds ua-parser-js
 * does not know. The agents follow the shapes real devices send; the sourced ones are in
 * tests/fixtures/ua-*-researched.tsv (device-corpus-wide.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { detectDevice } from '../../shared/device.ts';

const CHROME = 'AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.230';
const WEBVIEW = `AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36`;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)';

const detect = (userAgent: string) => detectDevice({ userAgent });

describe('operating system names', () => {
  it('reads lower-case agents as the same OS and browser', () => {
    const android = detect(`mozilla/5.0 (linux; android 9; sm-g960f) ${CHROME.toLowerCase()} mobile safari/537.36`);
    expect(android).toMatchObject({ operatingSystem: 'Android', os: 'Android', browser: 'Chrome', mobile: true });
    const iPhone = detect(`${IPHONE.toLowerCase()} version/17.4 mobile/15e148 safari/604.1`);
    expect(iPhone).toMatchObject({ operatingSystem: 'iOS', os: 'iOS', mobile: true });
  });

  it.each([
    ['winnovo_T1', 'Mozilla/5.0 (Linux; Android 11; winnovo_T1 Build/RP1A.200720.011) ', 'Safari/537.36'],
    ['Winner8', 'Mozilla/5.0 (Linux; Android 7.0; Winner8 Build/NRD90M) ', 'Safari/537.36'],
    ['DARWIN9', 'Mozilla/5.0 (Linux; Android 8.1.0; DARWIN9 Build/O11019) ', 'Mobile Safari/537.36'],
  ])('takes the Android version over the OS read from the model %s', (_, head, tail) => {
    const device = detect(`${head}${CHROME} ${tail}`);
    expect(device).toMatchObject({ operatingSystem: 'Android', os: 'Android', mobile: true });
    expect(device.osVersion).toMatch(/^\d/);
  });

  it('keeps Windows Phone and Windows IoT agents, whose Android token is for compatibility, off Android', () => {
    const phone = detect(
      'Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.15063',
    );
    expect(phone).toMatchObject({ operatingSystem: 'PC', mobile: true });
    const iot = detect(
      'Mozilla/5.0 (Windows IoT 10.0; Android 6.0.1; WebView/3.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/64.0.3282.140 Mobile Safari/537.36 Edge/18.17763',
    );
    expect(iot).toMatchObject({ operatingSystem: 'PC', mobile: false });
  });

  it.each([
    'Mozilla/5.0 (Linux; U; en-us; KFAPWI Build/JDQ39) AppleWebKit/535.19 (KHTML, like Gecko) Silk/3.13 Safari/535.19 Silk-Accelerated=true',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Silk/120.4.1 like Chrome/120.0.6099.230 Safari/537.36',
  ])('takes Kindle Fire agents for Android handhelds: %s', (agent) => {
    expect(detect(agent)).toMatchObject({ operatingSystem: 'Android', mobile: true, bot: false });
  });
});

describe('in-app tokens', () => {
  it.each([
    [
      'Google',
      `Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) ${WEBVIEW} GoogleApp/14.39.18.29.arm64`,
    ],
    ['Bing', `Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) ${WEBVIEW} BingWeb/28.5.430912106`],
    ['Bing', `Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) ${WEBVIEW} Sapphire/28.5.430912106`],
    ['Bing', `${IPHONE} Version/17.4 Mobile/15E148 Safari/605.1.15 BingSapphire/28.5.430912106`],
    [
      'Zalo',
      `Mozilla/5.0 (Linux; Android 12; SM-A525F Build/SP1A.210812.016; wv) ${WEBVIEW} Zalo android/12100625 ZaloTheme/light ZaloLanguage/vi`,
    ],
    ['Zalo', `${IPHONE} Mobile/15E148 Zalo iOS/640 ZaloTheme/light ZaloLanguage/vn`],
    [
      'TikTok',
      `Mozilla/5.0 (Linux; Android 12; TECNO KG5p Build/SP1A.210812.016; wv) ${WEBVIEW}trill_350603 JsSdk/1.0 AppName/trill app_version/35.6.3`,
    ],
    [
      'TikTok',
      `Mozilla/5.0 (Linux; Android 12; TECNO KG5p Build/SP1A.210812.016; wv) ${WEBVIEW} JsSdk/1.0 NetType/WIFI AppName/musically_go app_version/33.8.2`,
    ],
    [
      'TikTok',
      `Mozilla/5.0 (Linux; Android 12; TECNO KG5p Build/SP1A.210812.016; wv) ${WEBVIEW} JsSdk/1.0 NetType/WIFI AppName/ultralite app_version/33.8.2`,
    ],
    ['WhatsApp', `Mozilla/5.0 (Linux; Android 15; SM-S921B Build/AP3A.240905.015; wv) ${WEBVIEW} WA4A/2.26.30.97`],
    [
      'Kuaishou',
      `Mozilla/5.0 (Linux; Android 10; Redmi Note 8 Build/QKQ1.200114.002; wv) ${WEBVIEW} Yoda/2.8.5 Kwai_Pro/7.1.30.529405 NetType/LTE`,
    ],
  ])('names %s from its token variant', (name, agent) => {
    const device = detect(agent);
    expect(device.inApp?.name).toBe(name);
    expect(device.bot).toBe(false);
  });

  it.each([
    ["Pinterest's crawler", 'Pinterest/0.2 (+http://www.pinterest.com/bot.html)'],
    ["Snapchat's link preview", 'Mozilla/5.0 (compatible; SnapURLPreview/1.0; +https://www.snapchat.com)'],
    [
      "Snapchat's ads crawler",
      'Mozilla/5.0 (compatible; SnapchatAds/1.0; +https://businesshelp.snapchat.com/s/article/adsbot-crawler)',
    ],
    [
      'a fetcher carrying an app token',
      `Mozilla/5.0 (Linux; Android 13; Pixel 4a (5G) Build/TQ2A.230505.002; wv) ${WEBVIEW} GoogleApp/14.16.27.29.arm64 AppEngine-Google; (+http://code.google.com/appengine; appid: s~virustotalcloud)`,
    ],
  ])('takes %s for a bot, not an in-app person', (_, agent) => {
    expect(detect(agent)).toMatchObject({ bot: true, inApp: null });
  });

  it('does not read an app name inside a URL as its token', () => {
    const agent = `Mozilla/5.0 (Linux; Android 14; Pixel 8) ${CHROME} Mobile Safari/537.36 (+https://www.snapchat.com/2.0)`;
    expect(detect(agent).inApp).toBeNull();
  });
});

describe('bot words inside a device model', () => {
  it.each(['Discovery', 'M bot 60', 'XBot_Senior', 'CUBOT X30', 'Newsday'])(
    'takes a %s phone for a person',
    (model) => {
      const device = detect(
        `Mozilla/5.0 (Linux; Android 10; ${model} Build/QP1A.190711.020) ${CHROME} Mobile Safari/537.36`,
      );
      expect(device).toMatchObject({ bot: false, operatingSystem: 'Android', mobile: true });
    },
  );

  it('still takes a phone agent with a bot token outside the model for a bot', () => {
    const googlebot = `Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) ${CHROME} Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`;
    expect(detect(googlebot).bot).toBe(true);
    const inModel = `Mozilla/5.0 (Linux; Android 10; compatible; SomeBot/1.0) ${CHROME} Mobile Safari/537.36`;
    expect(detect(inModel).bot).toBe(true);
  });

  it('takes the Sogou Mobile Browser for a person', () => {
    const agent = `Mozilla/5.0 (Linux; Android 9; MI 8 Build/PKQ1.180729.001) ${CHROME} Mobile Safari/537.36 SogouMobileBrowser/5.28.12`;
    expect(detect(agent).bot).toBe(false);
  });
});

describe('handhelds ua-parser-js does not know', () => {
  it('takes an Android agent without Mobile and with an unknown model for a handheld', () => {
    expect(detect(`Mozilla/5.0 (Linux; Android 12; ZX-Unknown-9) ${CHROME} Safari/537.36`).mobile).toBe(true);
    expect(detect(`Mozilla/5.0 (Linux; U; Android 4.0.4; en-us; Build/IMM76D) ${CHROME} Safari/537.36`).mobile).toBe(
      true,
    );
  });

  it.each([
    ['an Android TV', `Mozilla/5.0 (Linux; Android 9; BRAVIA 4K GB Build/PTT1.190515.001.S52) ${CHROME} Safari/537.36`],
    ['a Fire TV', `Mozilla/5.0 (Linux; Android 9; AFTMM Build/PS7233) ${CHROME} Safari/537.36`],
    ['a Chromebook', `Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) ${CHROME} Safari/537.36`],
    ['an Android-x86 laptop', `Mozilla/5.0 (Linux; Android 9; Android-x86 Build/PI) ${CHROME} Safari/537.36`],
  ])('keeps %s off mobile', (_, agent) => {
    expect(detect(agent).mobile).toBe(false);
  });

  it.each([
    'Mozilla/5.0 (Windows Mobile 10; Android 10.0; Microsoft; Lumia 950XL) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Mobile Safari/537.36 Edge/40.15254.603',
    'Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0; ARM; Touch)',
  ])('takes Windows 10 Mobile and IEMobile for mobile: %s', (agent) => {
    expect(detect(agent).mobile).toBe(true);
  });
});

describe('systems ua-parser-js misreads (tests/fixtures/ua-labelled-sets.ts: ua-parser, random-useragent)', () => {
  it.each([
    'Mozilla/5.0 (iPhone; U; CPU iPhone 6_1_4 like Mac OS X; en-us) AppleWebKit/528.18 (KHTML, like Gecko) Mobile/7E18 Grindr/1.8.8 (iPhone5,2/6.1.4)',
    '4 Pics 1 Word/3.9 (iPad; iOS 7.0.2; Scale/2.00)',
    'UCWEB/2.0 (iOS; U; iPh OS 7_0_4; zh-CN; iPh4,1) U2/1.0.0 UCBrowser/9.0.1.284 U2/1.0.0 Mobile',
    'server-bag [iPhone OS,6.1,10B144,iPhone3,2]',
  ])("takes an iOS app's own client for an iOS handheld: %s", (agent) => {
    expect(detect(agent)).toMatchObject({ operatingSystem: 'iOS', mobile: true });
  });

  it("takes a Mac's CFNetwork client for a PC and an iPhone's for iOS", () => {
    const mac = detect('Safari/9537.71 CFNetwork/673.0.2 Darwin/13.0.1 (x86_64) (MacBookPro11,1)');
    expect(mac).toMatchObject({ operatingSystem: 'PC', os: 'Mac OS', mobile: false });
    const iPhone = detect('MobileSafari/7534.48.3 CFNetwork/548.0.4 Darwin/11.0.0');
    expect(iPhone).toMatchObject({ operatingSystem: 'iOS', mobile: true });
  });

  it('reads no iOS where no Apple token stands', () => {
    const maemo = detect('Mozilla/4.0 (compatible; MSIE 8.0; Linux armv7l; Maemo; Opera Mobi/9; es-ES) Opera 11.00');
    expect(maemo).toMatchObject({ operatingSystem: 'PC', mobile: true });
  });

  it.each([
    'UCWEB/2.0 (Linux; U; Adr 4.2.2; zh-CN; ZTE V818) U2/1.0.0 UCBrowser/9.3.2.349 U2/1.0.0 Mobile',
    'UCWEB/2.0 (MIDP-2.0; U; Adr 9; en-US; RMX1911) U2/1.0.0 UCBrowser/13.4.0.1306 U2/1.0.0 Gecko/20100101 Firefox/8.0',
    'JUC (Linux; U; 2.3.6; zh-cn; GT-S7500; 320*480) UCWEB7.9.0.94/139/352',
  ])("takes UC Browser's own agent for Android: %s", (agent) => {
    expect(detect(agent)).toMatchObject({ operatingSystem: 'Android', os: 'Android', mobile: true });
  });

  it.each([
    ['Android', 'Puffin/4.5.0AP'],
    ['Android', 'Puffin/4.8.0.2965AT'],
    ['iOS', 'Puffin/3.9174IT'],
  ])("takes Puffin's desktop agent with a %s suffix for that handheld: %s", (system, puffin) => {
    const agent = `Mozilla/5.0 (X11; U; Linux x86_64; en-us) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/30.0.1599.114 Safari/537.36 ${puffin}`;
    expect(detect(agent)).toMatchObject({ operatingSystem: system, mobile: true });
  });

  it("keeps the PlayStation Vita's Silk browser off Kindle's Android", () => {
    const vita = detect('Mozilla/5.0 (PlayStation Vita 1.51) AppleWebKit/531.22.8 (KHTML, like Gecko) Silk/3.2');
    expect(vita).toMatchObject({ operatingSystem: 'PC', mobile: false });
  });
});

describe('handhelds before Android and iOS (tests/fixtures/ua-labelled-sets.ts: woothee, random-useragent)', () => {
  it.each([
    'KDDI-TS3V UP.Browser/6.2_7.2.7.1.K.6.210 (GUI) MMP/2.0',
    'DoCoMo/2.0 N07B(c500;TB;W24H16)',
    'SoftBank/1.0/841SH/SHJ001/SN000000000000000 Browser/NetFront/3.5 Profile/MIDP-2.0 Configuration/CLDC-1.1',
    'Mozilla/4.0 (jig browser9)',
    'Mozilla/3.0(WILLCOM;KYOCERA/WX331K/2;1.0.8.13.000000/0.1/C100) Opera 7.2 EX',
    'portalmmm/2.0 N410i(c20;TB)',
    'Mozilla/5.0 (SymbianOS/9.1; U; en-us) AppleWebKit/413 (KHTML, like Gecko) Safari/413',
    'Mozilla/4.0 (compatible; MSIE 6.0; Windows 98; PalmSource/hspr-H102; Blazer/4.0) 16;320x320',
    'Mozilla/5.0 (Windows; U; Windows CE 5.1; rv:1.8.1a3) Gecko/20060610 Minimo/0.016',
    'Mozilla/5.0 (Mobile; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5',
    'Mozilla/5.0 (Windows NT 10.0; ARM; Lumia 950 Dual SIM) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/51.0.2704.79 Safari/537.36 Edge/14.14393',
  ])('takes %s for a handheld', (agent) => {
    expect(detect(agent)).toMatchObject({ mobile: true, bot: false });
  });
});

describe("isbot's words and shapes on people's agents", () => {
  it.each([
    'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1; Trident/4.0; GoogleT5; .NET CLR 1.1.4322)',
    'Mozilla/5.0 (Windows; U; Windows NT 6.0; en-US; rv:1.9.1.8) Gecko/20100202 Firefox/3.5.8 (.NET CLR 3.5.30729) FirePHP/0.4',
    'Mozilla/5.0 (LG-T500 AppleWebkit/531 Browser/Phantom/V2.0 Widget/LGMW/3.0 MMS/LG-MMS-V1.0/1.2 Java/ASVM/1.1 Profile/MIDP-2.1 Configuration/CLDC-1.1)',
    'Mozilla/3.0(DDIPOCKET;JRC/AH-J3001V,AH-J3002V/1.0/0100/c50)CNF/2.0',
    'w3m/0.5.1',
    'Mozilla/4.0 (compatible; Dillo 3.0)',
    'Sleipnir/2.9.9',
    'SonyEricssonT68/R201A',
  ])('takes %s for a person', (agent) => {
    expect(detect(agent).bot).toBe(false);
  });

  it.each([
    'curl/8.4.0',
    'Java/1.8.0_292',
    'Nokia6230/2.0 (04.44) Profile/MIDP-2.0 Configuration/CLDC-1.1 (compatible; Googlebot-Mobile/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; Dillo 3.0; +http://example.com/crawler)',
  ])('still takes %s for a bot', (agent) => {
    expect(detect(agent).bot).toBe(true);
  });
});

describe('browsers isbot takes for bots (tests/fixtures/ua-labelled-sets.ts: random-useragent)', () => {
  it.each([
    'NetSurf/1.2 (NetBSD; amd64)',
    'NetSurf/2.9 (RISC OS; armv5l)',
    'NetSurf/3.4 (Haiku; BePC)',
    'amaya/11.4.4 libwww/5.4.1',
  ])('takes %s, a browser isbot lists by name, for a person', (agent) => {
    expect(detect(agent)).toMatchObject({ bot: false, operatingSystem: 'PC', inApp: null });
  });

  it.each(['NetSurf/3.10 (Linux; +http://example.com/bot.html)', 'NetSurf/3.10 (Linux) crawler'])(
    'still takes %s, with a bot word beside the browser, for a bot',
    (agent) => {
      expect(detect(agent).bot).toBe(true);
    },
  );

  it('takes a browser whose only comment is its own homepage for a person', () => {
    expect(detect('Avant Browser/1.2.789rel1 (http://www.avantbrowser.com)').bot).toBe(false);
    expect(detect('Avant Browser/2.0 (https://avantbrowser.com/)').bot).toBe(false);
  });

  it.each([
    ['an address on another host', 'Avant Browser/1.2.789rel1 (http://www.example.com)'],
    ['a page beyond the homepage', 'Avant Browser/1.2.789rel1 (http://www.avantbrowser.com/bot.html)'],
    ["a crawler's + contact", 'Avant Browser/1.2.789rel1 (+http://www.avantbrowser.com)'],
    ['a bot word in the name', 'Spider Browser/1.0 (http://www.spiderbrowser.com)'],
    ['a product not named a browser', 'Yanga/1.1 (http://www.yanga.com/)'],
  ])('still takes a browser product with %s for a bot', (_, agent) => {
    expect(detect(agent).bot).toBe(true);
  });
});
