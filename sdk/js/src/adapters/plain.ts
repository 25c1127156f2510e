/**
 * The plain adapters: a store in memory (tests, or an app that keeps nothing), and a web app's or
 * PWA's platform: `localStorage`, the device as the browser tells it, the clipboard only when asked.
 */
import type { DeviceFacts, KeyValueStore, PlatformAdapter } from '../types.ts';

/** A store in a `Map`: lost when the process ends. */
export function memoryStore(map = new Map<string, string>()): KeyValueStore {
  return {
    get: (key) => map.get(key) ?? null,
    set: (key, value) => void map.set(key, value),
    remove: (key) => void map.delete(key),
  };
}

/** The browser's `localStorage`, or memory where it is missing or refused. */
function localStore(): KeyValueStore {
  try {
    const storage = globalThis.localStorage;
    storage.getItem('lander:probe');
    return {
      get: (key) => storage.getItem(key),
      set: (key, value) => storage.setItem(key, value),
      remove: (key) => storage.removeItem(key),
    };
  } catch {
    return memoryStore();
  }
}

/** The device as a browser tells it: the OS from the agent, the screen in CSS pixels. */
export function webDevice(): DeviceFacts {
  const agent = globalThis.navigator?.userAgent ?? '';
  const ios = /(?:iPhone|iPad|iPod).*? OS (\d+)[_.](\d+)/.exec(agent);
  const android = /Android (\d+(?:\.\d+)?)/.exec(agent);
  const screen = globalThis.screen;
  return {
    platform: ios ? 'ios' : /OpenHarmony|ArkWeb/.test(agent) ? 'harmony' : 'android',
    osVersion: ios ? `${ios[1]}.${ios[2]}` : (android?.[1] ?? '0'),
    screen: { w: screen?.width || 1, h: screen?.height || 1, scale: globalThis.devicePixelRatio || 1 },
    tz: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    langs: [...(globalThis.navigator?.languages ?? ['en'])],
  };
}

/** A web app's platform; `readClipboard` reads the clipboard at first launch (the browser may ask). */
export function webPlatform({ readClipboard = false }: { readClipboard?: boolean } = {}): PlatformAdapter {
  return {
    storage: localStore(),
    device: webDevice,
    online: (run) => globalThis.addEventListener?.('online', run),
    ...(readClipboard ? { clipboard: () => globalThis.navigator.clipboard.readText() } : {}),
  };
}
