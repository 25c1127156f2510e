/**
 * The JS SDK (sdk/js) beyond the conformance cases: its size, the React Native and Capacitor
 * adapters with modules shaped by their packages' own types, debug lines, and that nothing a
 * platform or the network does throws into the app.
 */
import { describe, expect, it } from 'vitest';
import { bundleSdk, documentedSizesTable, SDK_GZIP_BUDGET, sizesTable } from '../../scripts/sdk-js.ts';
import { type CapacitorPlugins, capacitorPlatform } from '../../sdk/js/src/adapters/capacitor.ts';
import { type ReactNativeModules, reactNativePlatform } from '../../sdk/js/src/adapters/react-native.ts';
import { createLander, type DeviceFacts, memoryStore, type PlatformAdapter } from '../../sdk/js/src/index.ts';
import { FakeClock, settle } from '../fixtures/sdk-js-harness.ts';

const HOST = 'https://get.pebble-notes.example';
const CARRIER = 'Hq3x0v9gLwA8c2m5Yb7TnQ.abc';
const DEVICE: DeviceFacts = {
  platform: 'ios',
  osVersion: '17.5.1',
  screen: { w: 393, h: 852, scale: 3 },
  tz: 'Asia/Shanghai',
  langs: ['zh-Hans-CN'],
};
// The adapters' module types are the packages' own (sdk/js/node_modules), reached through the adapters.
type AsyncStorageStatic = ReactNativeModules['AsyncStorage'];
type PreferencesPlugin = CapacitorPlugins['Preferences'];
type DevicePlugin = CapacitorPlugins['Device'];
type ClipboardPlugin = NonNullable<CapacitorPlugins['Clipboard']>;

/** A fetch that records bodies and answers `none`. */
function recorder() {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_: unknown, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)));
    return new Response('{"matched":false,"reason":"none"}');
  };
  return { bodies, fetch: fetch as typeof globalThis.fetch };
}

describe('the bundle', () => {
  it(`is at most ${SDK_GZIP_BUDGET} B gzip as ESM and as the CommonJS build require() takes, with no runtime dependency`, async () => {
    for (const sizes of [await bundleSdk(), await bundleSdk(false, 'cjs')]) {
      expect(sizes.index?.gzip).toBeGreaterThan(1000);
      expect(sizes.index?.gzip).toBeLessThanOrEqual(SDK_GZIP_BUDGET);
      expect(Object.keys(sizes).sort()).toEqual(['capacitor', 'index', 'react-native']);
    }
  });

  it("docs/sdk.md's size table is what `npm run sdk:js` writes for these sources (ESM and CommonJS)", async () => {
    const [esm, cjs] = await Promise.all([bundleSdk(), bundleSdk(false, 'cjs')]);
    expect(Object.keys(cjs).sort()).toEqual(['capacitor', 'index', 'react-native']);
    expect(documentedSizesTable(), 'run `npm run sdk:js` and commit docs/sdk.md').toBe(sizesTable(esm, cjs));
  });
});

describe('React Native adapter', () => {
  const storage = new Map<string, string>();
  const AsyncStorage = {
    getItem: async (key: string) => storage.get(key) ?? null,
    setItem: async (key: string, value: string) => void storage.set(key, value),
    removeItem: async (key: string) => void storage.delete(key),
  } as Partial<AsyncStorageStatic> as AsyncStorageStatic;
  const modules = (os: 'ios' | 'android', clipboard: { url: boolean; text: string }): ReactNativeModules => ({
    Clipboard: {
      hasURL: async () => clipboard.url,
      getString: async () => clipboard.text,
    } as Partial<ReactNativeModules['Clipboard']> as ReactNativeModules['Clipboard'],
    AsyncStorage,
    PlayInstallReferrer: {
      getInstallReferrerInfo: (callback) =>
        callback(
          {
            installReferrer: CARRIER,
            installVersion: '2.4.0',
            googlePlayInstant: false,
            installBeginTimestampSeconds: 1764140090,
            installBeginTimestampServerSeconds: 1764140091,
            referrerClickTimestampSeconds: 1764140000,
            referrerClickTimestampServerSeconds: 0,
          },
          null,
        ),
    },
    Platform:
      os === 'ios'
        ? { OS: 'ios', Version: '17.5' }
        : { OS: 'android', Version: 34, constants: { Release: '14', Model: 'SM-S911B' } },
    Dimensions: { get: () => ({ width: 360, height: 780, scale: 3 }) },
  });

  it('on Android sends the Play referrer and the clipboard link, the device from Platform and Dimensions', async () => {
    const { bodies, fetch } = recorder();
    const platform = reactNativePlatform(modules('android', { url: true, text: `${HOST}/i/${CARRIER}` }));
    await createLander({ url: HOST, app: 'com.pebble.notes', platform, fetch }).install();
    expect(bodies[0]).toMatchObject({
      platform: 'android',
      osVersion: '14',
      model: 'SM-S911B',
      screen: { w: 360, h: 780, scale: 3 },
      carriers: { playReferrer: CARRIER, clipboard: `${HOST}/i/${CARRIER}` },
    });
    // The same read's times, for the fraud rules (docs/fraud.md); Play's 0 is "unknown", left out.
    expect(bodies[0]?.installReferrer).toEqual({
      installBeginTimestampSeconds: 1764140090,
      installBeginTimestampServerSeconds: 1764140091,
      referrerClickTimestampSeconds: 1764140000,
    });
    expect(storage.size).toBeGreaterThan(0);
  });

  it('on iOS never reads a pasteboard that holds no URL', async () => {
    const { bodies, fetch } = recorder();
    const m = modules('ios', { url: false, text: `${HOST}/i/${CARRIER}` });
    const platform = reactNativePlatform({ ...m, PlayInstallReferrer: undefined });
    storage.clear();
    await createLander({ url: HOST, app: 'com.pebble.notes', platform, fetch }).install();
    expect(bodies[0]).toMatchObject({ platform: 'ios', osVersion: '17.5' });
    expect(bodies[0]).not.toHaveProperty('carriers');
  });
});

describe('Capacitor adapter', () => {
  it('keeps state in Preferences and reads the device and the clipboard from their plugins', async () => {
    const kept = new Map<string, string>();
    const Preferences = {
      get: async ({ key }: { key: string }) => ({ value: kept.get(key) ?? null }),
      set: async ({ key, value }: { key: string; value: string }) => void kept.set(key, value),
      remove: async ({ key }: { key: string }) => void kept.delete(key),
    } as Partial<PreferencesPlugin> as PreferencesPlugin;
    const Device = {
      getInfo: async () => ({ platform: 'android', osVersion: '14', model: 'Pixel 8' }),
      getLanguageTag: async () => ({ value: 'en-IN' }),
    } as unknown as DevicePlugin;
    const Clipboard = {
      read: async () => ({ type: 'text/plain', value: `${HOST}/i/${CARRIER}` }),
    } as Partial<ClipboardPlugin> as ClipboardPlugin;
    const { bodies, fetch } = recorder();
    const platform = capacitorPlatform({ Preferences, Device, Clipboard });
    await createLander({ url: HOST, app: 'com.pebble.notes', platform, fetch }).install();
    expect(bodies[0]).toMatchObject({
      platform: 'android',
      osVersion: '14',
      model: 'Pixel 8',
      langs: ['en-IN'],
      carriers: { clipboard: `${HOST}/i/${CARRIER}` },
    });
    expect([...kept.keys()]).toContain('lander:com.pebble.notes:install');
  });
});

describe('never throws into the app', () => {
  const broken: PlatformAdapter = {
    storage: {
      get: () => {
        throw new Error('disk gone');
      },
      set: () => Promise.reject(new Error('disk full')),
      remove: () => undefined,
    },
    device: () => {
      throw new Error('no device');
    },
    clipboard: () => Promise.reject(new Error('denied')),
  };

  it('answers "offline" when fetch itself throws, and every other call still answers', async () => {
    const fetch = (() => {
      throw new Error('no fetch here');
    }) as typeof globalThis.fetch;
    const lander = createLander({ url: HOST, app: 'com.pebble.notes', platform: broken, fetch });
    expect(await lander.install()).toEqual({ matched: false, reason: 'offline' });
    expect(await lander.pendingLink()).toBeNull();
    expect(await lander.consumeLink()).toBeNull();
    expect(await lander.open(`${HOST}/i/${CARRIER}`)).toEqual({ matched: false, reason: 'offline' });
    expect(() => lander.track('register')).not.toThrow();
    await expect(lander.flush()).resolves.toBeUndefined();
  });

  it('answers within the budget when a platform read never answers', async () => {
    const clock = new FakeClock();
    const { bodies, fetch } = recorder();
    const platform: PlatformAdapter = {
      storage: memoryStore(),
      device: () => DEVICE,
      playReferrer: () => new Promise<string>(() => undefined),
    };
    const answer = createLander({
      url: HOST,
      app: 'com.pebble.notes',
      platform,
      fetch,
      clock,
      timeoutMs: 800,
    }).install();
    await clock.advanceTo(800);
    await settle();
    // The hung read used the whole budget: "offline" now, and the body (without it) is kept for the next launch.
    expect(await answer).toEqual({ matched: false, reason: 'offline' });
    expect(bodies).toEqual([]);
  });
});

describe('debug', () => {
  it('logs the carriers found, what was sent and what came back', async () => {
    const lines: string[] = [];
    const { fetch } = recorder();
    const platform: PlatformAdapter = {
      storage: memoryStore(),
      device: () => DEVICE,
      clipboard: () => `${HOST}/i/${CARRIER}`,
    };
    await createLander({
      url: HOST,
      app: 'com.pebble.notes',
      platform,
      fetch,
      debug: (line) => lines.push(line),
    }).install();
    expect(lines.join('\n')).toContain('carriers found: clipboard');
    expect(lines.join('\n')).toContain('install: sending {"app":"com.pebble.notes"');
    expect(lines.join('\n')).toContain('answer {"matched":false,"reason":"none"}');
  });

  it('is silent without it', async () => {
    const { fetch } = recorder();
    const logged: unknown[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void logged.push(args);
    try {
      await createLander({
        url: HOST,
        app: 'com.pebble.notes',
        platform: { storage: memoryStore(), device: () => DEVICE },
        fetch,
      }).install();
    } finally {
      console.log = original;
    }
    expect(logged).toEqual([]);
  });
});
