/**
 * The operating system where ua-parser-js reads none or the wrong one (docs/device.md, "The fields"),
 * by the family of agents that sends it:
 * - iOS apps' own HTTP clients and malformed Safari agents name the device but no `iPhone OS … like
 *   Mac OS X` (`App/3.9 (iPad; iOS 7.0.2; Scale/2.00)`, `CPU iPhone 6_1_4 like Mac OS X`,
 *   `iPh OS 7_0_4`, `server-bag [iPhone OS,6.1,…]`): an Apple handheld's name makes them iOS;
 * - Apple's CFNetwork agents from a Mac (`CFNetwork/673 Darwin/13.0.1 (x86_64) (MacBookPro11,1)`),
 *   which ua-parser-js takes for iOS: an Intel CPU or a Mac model makes them macOS;
 * - an iOS ua-parser-js reads where no Apple token stands (a Maemo Opera) is no iOS;
 * - Puffin's phone and tablet builds, which send a desktop Linux agent with the device in the
 *   version's suffix (`Puffin/4.5.0AT`: A Android, I iOS; P phone, T tablet);
 * - UC Browser's own agents (`UCWEB/2.0 (Linux; U; Adr 4.2.2; …)`, `UCWEB/2.0 (MIDP-2.0; U; Adr 9; …)`,
 *   `JUC (Linux; U; 2.3.6; …)`),
 *   whose `Adr` and bare version are Android's.
 */

const APPLE_HANDHELD = /\biP(?:hone|ad|od)|\biPh OS\b|\biOS[ /]\d/;
const APPLE_TOKEN = /\biP(?:hone|ad|od)|\biPh OS\b|\biOS\b|\bCFNetwork\/|\bDarwin\//i;
const MAC_CLIENT = /\bCFNetwork\/.*\((?:x86_64|i386)\)|\b(?:MacBook|Macmini|iMac|MacPro)\d/;
const PUFFIN = /\bPuffin\/[\d.]+([AI])[PT]\b/;
const UC_ANDROID = /^(?:UCWEB\/2\.0 \((?:MIDP-2\.0; )?(?:Linux; )?U; Adr (\d[\d.]*)|JUC ?\(Linux; ?U; ?(\d[\d.]*);)/;

/** The OS the agent's own tokens name where ua-parser-js's reading (`parsedOs`) is missing or wrong. */
export function systemFromTokens(userAgent: string, parsedOs: string | undefined): string | undefined {
  const puffin = PUFFIN.exec(userAgent)?.[1];
  if (puffin) return puffin === 'A' ? 'Android' : 'iOS';
  if (parsedOs === 'iOS') {
    if (MAC_CLIENT.test(userAgent)) return 'Mac OS';
    return APPLE_TOKEN.test(userAgent) ? 'iOS' : undefined;
  }
  if (parsedOs === undefined || (parsedOs === 'Mac OS' && !userAgent.includes('Macintosh'))) {
    if (APPLE_HANDHELD.test(userAgent)) return 'iOS';
  }
  return parsedOs;
}

/** The Android version in UC Browser's own agent, `null` when the agent is not one. */
export function ucAndroidVersion(userAgent: string): string | null {
  const match = UC_ANDROID.exec(userAgent);
  return match ? (match[1] ?? match[2] ?? '') : null;
}
