/**
 * Mobile (docs/device.md). In the browser: the screen is narrower than 1024 or shorter than 600
 * and the device has touch and orientation support — or the agent names a known phone brand.
 * On the worker, which sees no screen: the agent's device type, `Sec-CH-UA-Mobile`, or a brand;
 * Android agents ua-parser-js does not class are handhelds unless they name a TV, Chromebook or x86.
 */

// Brand and model tokens as they appear in phone agents. Word boundaries keep browser names out:
// `HuaweiBrowser` (also on HarmonyOS PCs) and `OppoBrowser` must not count as phones.
const PHONE_BRAND =
  /\b(?:iPhone|iPod|iPad|HUAWEI|HONOR|Xiaomi|Redmi|POCO|MI \d|OnePlus|OPPO|vivo|realme|iQOO|Meizu|nubia|ZTE|Lenovo|motorola|moto [a-z]|Nokia|Xperia|Pixel \d|Nexus \d|SM-[A-Z]\d|Galaxy|Lumia|Infinix|TECNO|itel)\b/i;

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
// Handhelds by the platforms and browsers only they send: J2ME (`MIDP-2.0`), BREW, WAP and i-mode
// browsers (UP.Browser, NetFront, Obigo, Opera Mini/Mobile, `portalmmm/`), Japanese carriers' agents
// (`DoCoMo/`, `KDDI-`, `SoftBank/`, `Vodafone/`, WILLCOM, FOMA, jig), Symbian and Series 40,
// BlackBerry, Palm, Windows CE, Windows Phone 7's desktop mode (`ZuneWP7`), Maemo and MeeGo, webOS,
// Bada, Firefox OS and KaiOS, mobile Firefox before Android (Fennec, Minimo), the nook e-reader, and
// Puffin's and BOLT's cloud browsers, whose phone and tablet builds send a desktop agent
// (`Puffin/4.5.0AP`: A Android, I iOS, P phone, T tablet).
const HANDHELD_TOKENS =
  /\b(?:MIDP-\d|CLDC-\d|BREW|UP\.Browser|NetFront|Obigo|Opera Mini|Opera Mobi|FOMA|WILLCOM|DDIPOCKET|OpenBrowser|Series ?[346]0|S60|BlackBerry|BB10|PalmOS|PalmSource|Blazer|Windows ?CE|ZuneWP7|Maemo|MeeGo|hpwOS|Bada|KAIOS|Fennec|Minimo)\b|\b(?:DoCoMo\/|SoftBank\/|Vodafone\/|J-PHONE\/|KDDI-|portalmmm\/|jig browser|Symbian|webOS\/|nook browser|BOLT\/|Puffin\/[\d.]+[AI][PT]\b)|\((?:Mobile|Tablet); (?:[^)]*; )?rv:/i;

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
  // Every iOS device is an iPhone, iPad or iPod, whatever an app's own client leaves out of its agent.
  if (os === 'iOS' || HANDHELD_TOKENS.test(userAgent)) return true;
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
