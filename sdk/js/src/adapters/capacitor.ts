/**
 * The Capacitor platform: the app passes the official plugins it uses, typed by their own
 * definitions (`@capacitor/preferences`, `@capacitor/device`, `@capacitor/clipboard`). Capacitor has
 * no official Play install referrer plugin; an app with one passes `playReferrer`.
 */
import type { ClipboardPlugin } from '@capacitor/clipboard';
import type { DevicePlugin } from '@capacitor/device';
import type { PreferencesPlugin } from '@capacitor/preferences';
import type { DeviceFacts, PlatformAdapter } from '../types.ts';

export interface CapacitorPlugins {
  Preferences: PreferencesPlugin;
  Device: DevicePlugin;
  /** Leave it out to never read the clipboard (on iOS, reading it shows the paste prompt). */
  Clipboard?: ClipboardPlugin;
  /** The Play install referrer string, from a plugin the app has. */
  playReferrer?: () => Promise<string | null>;
}

/** The device as the Device plugin and the webview tell it (the webview's CSS pixels are points/dp). */
async function deviceOf(Device: DevicePlugin): Promise<DeviceFacts> {
  const [info, language] = await Promise.all([Device.getInfo(), Device.getLanguageTag()]);
  const screen = globalThis.screen;
  return {
    platform: info.platform === 'ios' ? 'ios' : 'android',
    osVersion: info.osVersion,
    model: info.model || null,
    screen: { w: screen?.width || 1, h: screen?.height || 1, scale: globalThis.devicePixelRatio || 1 },
    tz: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    langs: [language.value],
  };
}

export function capacitorPlatform(p: CapacitorPlugins): PlatformAdapter {
  const { Clipboard, playReferrer } = p;
  return {
    storage: {
      get: async (key) => (await p.Preferences.get({ key })).value,
      set: (key, value) => p.Preferences.set({ key, value }),
      remove: (key) => p.Preferences.remove({ key }),
    },
    device: () => deviceOf(p.Device),
    ...(Clipboard && { clipboard: async () => (await Clipboard.read()).value }),
    ...(playReferrer && { playReferrer }),
  };
}
