/**
 * The device tuple (match-rules.ts) of each side: a click from the page's request and body, an
 * install from the app's body. Both end in the same units: points, a primary language subtag, an
 * OS version only where it is real (os-version.ts).
 */

import type { ClientHints, DeviceInfo } from '../../shared/device/types.ts';
import { cleanClientHints } from '../../shared/device.ts';
import type { ClickInput, InstallInput } from './contract.ts';
import { type DeviceTuple, primaryLanguageOf, screenSides } from './match-rules.ts';
import { appOsVersion, reportedOs } from './os-version.ts';

/** The click's tuple; null for a device that installs no app (a desktop). */
export function clickTuple(device: DeviceInfo, headerHints: ClientHints, body: ClickInput): DeviceTuple | null {
  // The page's own hints (navigator.userAgentData) first: the request's only come once asked for.
  const hints = { ...headerHints, ...cleanClientHints(body.hints ?? {}) };
  const os = reportedOs(device, hints);
  if (!os) return null;
  return {
    ...os,
    ...screenSides(body.screen.w, body.screen.h),
    scale: body.screen.dpr,
    tz: body.tz,
    lang: primaryLanguageOf(body.langs),
  };
}

/** The install's tuple, as the app reports it. */
export function installTuple(body: InstallInput): DeviceTuple {
  const model = body.platform === 'android' ? body.model?.trim() || null : null;
  return {
    family: body.platform,
    version: appOsVersion(body.platform, body.osVersion),
    model,
    ...screenSides(body.screen.w, body.screen.h),
    scale: body.screen.scale,
    tz: body.tz,
    lang: primaryLanguageOf(body.langs),
  };
}
