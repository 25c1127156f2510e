/**
 * Mobile (docs/device.md). In the browser: the screen is narrower than 1024 or shorter than 600
 * and the device has touch and orientation support — or the agent names a known phone brand.
 * On the worker, which sees no screen: the agent's device type, `Sec-CH-UA-Mobile`, or a brand.
 */

// Brand and model tokens as they appear in phone agents. Word boundaries keep browser names out:
// `HuaweiBrowser` (also on HarmonyOS PCs) and `OppoBrowser` must not count as phones.
const PHONE_BRAND =
  /\b(?:iPhone|iPod|iPad|HUAWEI|HONOR|Xiaomi|Redmi|POCO|MI \d|OnePlus|OPPO|vivo|realme|iQOO|Meizu|nubia|ZTE|Lenovo|motorola|moto [a-z]|Nokia|Xperia|Pixel \d|Nexus \d|SM-[A-Z]\d|Galaxy|Infinix|TECNO|itel)\b/i;

/** The agent names a known phone or tablet brand or model line. */
export function hasPhoneBrand(userAgent: string): boolean {
  return PHONE_BRAND.test(userAgent);
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
