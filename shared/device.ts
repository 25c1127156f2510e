/**
 * The visitor's device (docs/device.md): one module for the worker and the browser. The worker
 * calls `detectDevice` with request headers; the browser calls it again after hydration with the
 * screen, touch, client hints and Telegram signals (client/browser/refine-device.ts).
 * The parts live in `shared/device/`, one job per file; this file is their public face.
 * Import types with `import type`: a value import pulls ua-parser-js and isbot into the bundle.
 */
export { cleanClientHints, clientHintsFromHeaders, DETECTION_HINTS, REQUESTED_HINTS } from './device/client-hints.ts';
export { type DetectInput, detectDevice } from './device/detect.ts';
export { type Blocks, detectInApp, IN_APP_TABLE, type InAppEntry } from './device/in-app-table.ts';
export type { Screen } from './device/mobile.ts';
export {
  type ClientHints,
  type DeviceInfo,
  type InApp,
  type InAppCategory,
  MAX_REFERRER,
  MAX_USER_AGENT,
  type OperatingSystem,
} from './device/types.ts';
