/** Lander's app SDK for JavaScript: React Native and Expo, Capacitor, web apps (docs/sdk.md). */
export { memoryStore, webDevice, webPlatform } from './adapters/plain.ts';
export { createLander, type Lander } from './lander.ts';
export type {
  Answer,
  Clock,
  Consent,
  DeferredLink,
  DeviceFacts,
  Explain,
  InstallReferrerTimes,
  InviteLink,
  InviteOptions,
  KeyValueStore,
  LanderOptions,
  MatchMethod,
  PlatformAdapter,
  TrackProps,
} from './types.ts';
