/**
 * Which text found on the device may be sent as a carrier (docs/sdk.md, docs/attribution.md): a
 * clipboard only when it is exactly a carrier link of this deployment's host, the Play referrer and
 * the APK stamp only when they are a bare carrier, a launch link only when it is an https carrier
 * link. Anything else is never sent. Regular expressions, not `URL`: React Native's `URL` is partial.
 */

const CARRIER = '[A-Za-z0-9_-]{22}(?:\\.[A-Za-z0-9_-]{1,2048})?';
const BARE = new RegExp(`^${CARRIER}$`);
const LINK = new RegExp(`^https?://([^/?#\\s]+)/i/${CARRIER}$`, 'i');
const IN_TEXT = new RegExp(`/i/${CARRIER}(?:$|[?#\\s])`);

/** The host (with its port) of a URL, lower-case; '' when it is not an http(s) URL. */
export function hostOf(url: string): string {
  return /^https?:\/\/([^/?#\s]+)/i.exec(url.trim())?.[1]?.toLowerCase() ?? '';
}

/** The clipboard's text when it is a carrier link of `host`, trimmed; otherwise null. */
export function clipboardCarrier(text: unknown, host: string): string | null {
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  const match = LINK.exec(trimmed);
  return match?.[1]?.toLowerCase() === host ? trimmed : null;
}

/** The text when it is a bare carrier (the Play referrer, the APK stamp); otherwise null. */
export function bareCarrier(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  return BARE.test(trimmed) ? trimmed : null;
}

/** The launch link when it is an https carrier link of any host (App Linking uses its own domain). */
export function linkCarrier(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  return LINK.test(trimmed) && /^https:/i.test(trimmed) ? trimmed : null;
}

/** The text an opening link may be sent as: a bare carrier, or text that holds `/i/<carrier>`. */
export function openCarrier(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  return BARE.test(trimmed) || IN_TEXT.test(trimmed) ? trimmed : null;
}
