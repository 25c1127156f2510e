/**
 * The React Native (and Expo dev build) platform: the app passes the modules it already has, so the
 * SDK adds no runtime dependency and never loads a native module itself. Typed by the packages' own
 * definitions: `@react-native-clipboard/clipboard`, `react-native-play-install-referrer` (Android),
 * `@react-native-async-storage/async-storage`; `Platform` and `Dimensions` are react-native's.
 */
import type { AsyncStorageStatic } from '@react-native-async-storage/async-storage';
import type ClipboardModule from '@react-native-clipboard/clipboard';
import type {
  PlayInstallReferrerInfo,
  PlayInstallReferrer as ReferrerModule,
} from 'react-native-play-install-referrer';
import type { DeviceFacts, PlatformAdapter } from '../types.ts';

export interface ReactNativeModules {
  Clipboard: typeof ClipboardModule;
  AsyncStorage: AsyncStorageStatic;
  /** Android only; leave it out on iOS. */
  PlayInstallReferrer?: typeof ReferrerModule;
  /** react-native's `Platform`: `OS`, `Version` (iOS: "17.5"), `constants.Release` (Android: "14"). */
  Platform: { OS: string; Version: number | string; constants?: { Release?: string; Model?: string } };
  /** react-native's `Dimensions`: the whole screen in dp/points, and its scale. */
  Dimensions: { get(dimension: 'screen'): { width: number; height: number; scale: number } };
  /** The device model, e.g. from expo-device's `modelId`/`modelName`, when the app has it. */
  model?: string;
  /** The system's languages, first the most preferred; default: the JavaScript engine's locale. */
  langs?: string[];
}

/** The device as React Native tells it. */
function deviceOf(m: ReactNativeModules): DeviceFacts {
  const { OS, Version, constants } = m.Platform;
  const screen = m.Dimensions.get('screen');
  const options = Intl.DateTimeFormat().resolvedOptions();
  return {
    platform: OS === 'ios' ? 'ios' : OS === 'harmony' ? 'harmony' : 'android',
    osVersion: OS === 'android' ? (constants?.Release ?? '0') : String(Version),
    model: m.model ?? constants?.Model ?? null,
    screen: { w: screen.width, h: screen.height, scale: screen.scale },
    tz: options.timeZone || 'UTC',
    langs: m.langs ?? [options.locale || 'en'],
  };
}

export function reactNativePlatform(m: ReactNativeModules): PlatformAdapter {
  const referrer = m.PlayInstallReferrer;
  // One read of Play's referrer gives both the carrier and the times (docs/fraud.md).
  let details: Promise<PlayInstallReferrerInfo | null> | null = null;
  const info = (module: typeof ReferrerModule) => {
    details ??= new Promise((resolve) => module.getInstallReferrerInfo((got) => resolve(got ?? null)));
    return details;
  };
  return {
    storage: {
      get: (key) => m.AsyncStorage.getItem(key),
      set: (key, value) => m.AsyncStorage.setItem(key, value),
      remove: (key) => m.AsyncStorage.removeItem(key),
    },
    device: () => deviceOf(m),
    // iOS: ask whether the pasteboard holds a URL first; only reading it shows the paste prompt.
    async clipboard() {
      if (m.Platform.OS === 'ios' && !(await m.Clipboard.hasURL())) return null;
      return m.Clipboard.getString();
    },
    ...(referrer && {
      playReferrer: async () => (await info(referrer))?.installReferrer ?? null,
      installReferrerTimes: async () => {
        const got = await info(referrer);
        return (
          got && {
            referrerClickTimestampSeconds: got.referrerClickTimestampSeconds,
            installBeginTimestampSeconds: got.installBeginTimestampSeconds,
            referrerClickTimestampServerSeconds: got.referrerClickTimestampServerSeconds,
            installBeginTimestampServerSeconds: got.installBeginTimestampServerSeconds,
          }
        );
      },
    }),
  };
}
