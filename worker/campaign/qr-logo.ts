/**
 * The app's logo for a styled QR code (docs/operators.md#qr-code-styles): a site path is read through
 * the worker's static assets, an https URL fetched with a short timeout and a size cap and kept a
 * few minutes by the isolate. It never throws: a logo that cannot be had says why, and the code is drawn without it.
 */
import { cappedBody } from '../lib/capped-body.ts';
import type { QrLogo } from '../lib/qr-styled.ts';

/** The longest wait for a remote logo. */
export const LOGO_TIMEOUT_MS = 2_000;
/** The most bytes a logo may have: a logo is a small image, and the SVG embeds it whole. */
export const LOGO_MAX_BYTES = 256 * 1024;

/**
 * How long an isolate keeps a remote logo it fetched: anyone may ask for a code in any number of
 * styles, and each would otherwise fetch the logo again. A logo that could not be had is not kept.
 */
export const LOGO_KEPT_MS = 300_000;
/** The most remote logos an isolate keeps: an app has one, and an isolate serves few apps. */
const LOGOS_KEPT = 16;

export type LogoResult = { ok: true; logo: QrLogo } | { ok: false; problem: string };

/** Remote logos fetched, by URL, each until its time. */
const keptLogos = new Map<string, { logo: QrLogo; until: number }>();

/** The logo at `url` kept by this isolate and still fresh at `now`, else undefined. */
function keptLogo(url: string, now: number): QrLogo | undefined {
  const kept = keptLogos.get(url);
  if (kept && kept.until > now) return kept.logo;
  keptLogos.delete(url);
  return undefined;
}

function keepLogo(url: string, logo: QrLogo, now: number): void {
  if (keptLogos.size >= LOGOS_KEPT) keptLogos.delete(keptLogos.keys().next().value ?? '');
  keptLogos.set(url, { logo, until: now + LOGO_KEPT_MS });
}

/** The image type of `bytes` by their first bytes, or null when they are no image a code may carry. */
export function imageTypeOf(bytes: Uint8Array): string | null {
  const starts = (...signature: number[]) => signature.every((byte, at) => bytes[at] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP') return 'image/webp';
  const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return null;
}

/**
 * The logo at `url` (the app's `logo_url`: a path on this site or an https URL), `origin` the
 * request's, `assets` the worker's static assets binding. A remote one is kept for LOGO_KEPT_MS.
 */
export async function fetchLogo(url: string, origin: string, assets: Fetcher, now = Date.now()): Promise<LogoResult> {
  const remote = !url.startsWith('/');
  const kept = remote ? keptLogo(url, now) : undefined;
  if (kept) return { ok: true, logo: kept };
  try {
    const response = remote
      ? await fetch(url, { signal: AbortSignal.timeout(LOGO_TIMEOUT_MS), redirect: 'follow' })
      : await assets.fetch(new URL(url, origin));
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, problem: `the logo ${url} answered ${response.status}` };
    }
    const bytes = await cappedBody(response, LOGO_MAX_BYTES);
    if (!bytes) return { ok: false, problem: `the logo ${url} is over ${LOGO_MAX_BYTES / 1024} kB` };
    const type = imageTypeOf(bytes);
    if (!type) return { ok: false, problem: `the logo ${url} is not a PNG, JPEG, GIF, WebP or SVG image` };
    const logo = { bytes, type };
    if (remote) keepLogo(url, logo, now);
    return { ok: true, logo };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return {
      ok: false,
      problem: timedOut
        ? `the logo ${url} did not answer within ${LOGO_TIMEOUT_MS} ms`
        : `the logo ${url} could not be fetched (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}
