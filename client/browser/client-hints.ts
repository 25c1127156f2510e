/**
 * The page's User-Agent Client Hints from `navigator.userAgentData` (docs/device.md), asked for once
 * per page: the click beacon sends the high-entropy ones with a tap, and the device refinement detects
 * with all of them. Cleaned like the worker's header hints (`cleanClientHints`), so a tap carries only
 * what the worker would keep.
 */
import { cleanClientHints } from '../../shared/device/client-hints.ts';
import type { ClientHints } from '../../shared/device/types.ts';

/** `navigator.userAgentData` (Chromium); not in TypeScript's DOM types yet. */
interface UserAgentData {
  mobile: boolean;
  platform: string;
  getHighEntropyValues(hints: string[]): Promise<{ model?: string; platformVersion?: string }>;
}

let asked: Promise<ClientHints> | undefined;

async function ask(): Promise<ClientHints> {
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  if (!data) return {};
  let high: { model?: string; platformVersion?: string } = {};
  try {
    high = await data.getHighEntropyValues(['model', 'platformVersion']);
  } catch {
    // Refused or broken: the low-entropy hints still count.
  }
  return cleanClientHints({ mobile: data.mobile, platform: data.platform, ...high });
}

/**
 * The page's client hints, cleaned; `{}` where the browser has none (Safari, Firefox). The browser is
 * asked once, the first time, and every later caller shares that answer. Never rejects.
 */
export function readClientHints(): Promise<ClientHints> {
  asked ??= ask();
  return asked;
}
