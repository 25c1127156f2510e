/**
 * Mobile (docs/device.md). In the browser: the screen is narrower than 1024 or shorter than 600
 * and the device has touch and orientation support — or the agent names a known phone brand.
 * On the worker, which sees no screen: the agent's device type, `Sec-CH-UA-Mobile`, or a brand;
 * Android agents ua-parser-js does not class are handhelds unless they name a TV, Chromebook or x86.
 */

// Brand and model tokens as they appear in phone agents. Word boundaries keep browser names out:
// `HuaweiBrowser` (also on HarmonyOS PCs) and `OppoBrowser` must not count as phones.
const PHONE_BRAND =
  /\b(?:iPhone|iPod|iPad|HUAWEI|HONOR|Xiaomi|Redmi|POCO|MI \d|OnePlus|OPPO|vivo|realme|iQOO|Meizu|nubia|ZTE|Lenovo|motorola|moto [a-z]|Nokia|Xperia|Pixel \d|Nexus \d|SM-[A-Z]\d|Galaxy|Infinix|TECNO|itel)\b/i;

/** The agent names a known phone or tablet brand or model line. */
export function hasPhoneBrand(userAgent: string): boolean {
  return PHONE_BRAND.test(userAgent);
}

// Android devices that are not handhelds: TVs and boxes, Chromebooks running Android apps, and
// Android-x86 laptops. Kindle Fire tablets (`KF…` models, Silk, even in desktop mode) are handhelds;
// Windows Phone and Windows 10 Mobile agents are phones whatever else they name.
const NOT_HANDHELD = /TV\b|\btv\b|TV[ _-]?Box|BRAVIA|\bAFT[A-Z]|MIBOX|\bCrKey\b|\bCrOS\b|x86/;
/** Kindle Fire tablets: `KF…` models and the Silk browser. */
export const KINDLE = /\bKF[A-Z]{2,6}\b|\bSilk\//;
const WINDOWS_PHONE = /\bWindows Phone\b|\bIEMobile\b|\bWindows (?:10 )?Mobile\b/i;
const NOT_HANDHELD_TYPES = new Set(['smarttv', 'console', 'embedded', 'xr']);

/**
 * The worker's handheld verdict from the agent and ua-parser-js's device type (docs/device.md): an
 * Android agent without `Mobile`, whose model ua-parser-js has no entry for, is a phone or tablet
 * unless it is a TV, a Chromebook or an x86 laptop.
 */
export function isHandheldAgent(userAgent: string, os: string, deviceType: string | undefined): boolean {
  if (deviceType === 'mobile' || deviceType === 'wearable') return true;
  if (NOT_HANDHELD_TYPES.has(deviceType ?? '')) return false;
  if (WINDOWS_PHONE.test(userAgent)) return true;
  if (KINDLE.test(userAgent)) return !/\bAFT[A-Z]/.test(userAgent);
  // Android-based HarmonyOS agents without a form factor are Android agents here.
  if (os !== 'Android' && os !== 'Harmony' && deviceType !== 'tablet') return false;
  return !NOT_HANDHELD.test(userAgent);
}

/** What the browser knows of its screen (docs/device.md). */
export interface Screen {
  width: number;
  height: number;
  /** `navigator.maxTouchPoints`. */
  touchPoints: number;
  /** The browser supports orientation (`screen.orientation` or `orientationchange`). */
  orientation: boolean;
}

/** The browser rule: a small screen that is touch-capable and supports orientation. */
export function isHandheldScreen({ width, height, touchPoints, orientation }: Screen): boolean {
  return (width < 1024 || height < 600) && touchPoints > 0 && orientation;
}
