/**
 * iPadOS (docs/device.md): since iPadOS 13, Safari on an iPad sends a desktop Mac agent, so the
 * worker sees a PC. Only the browser can tell: a "Mac" with more than one touch point is an iPad
 * (Macs report 0; Chromium's touch emulation reports 1).
 */

/** The agent says macOS but the device has a multi-touch screen. */
export function isIPadOS(osName: string, touchPoints: number | undefined): boolean {
  return osName === 'Mac OS' && (touchPoints ?? 0) > 1;
}

/** Safari's `Version/` is the iPadOS version (the Mac agent freezes the OS part at 10_15_7). */
export function iPadOSVersion(userAgent: string): string {
  return /\bVersion\/([\d.]+)/.exec(userAgent)?.[1] ?? '';
}
