/**
 * A short link's QR code in a style (docs/operators.md#qr-code-styles), answered by `GET
 * /s/<slug>.svg|.png?fg=…` (routes.ts). With the app's logo it reads the logo (qr-logo.ts); a logo
 * that cannot be had or drawn gives the code without it and says why in `x-qr-logo`, never an error.
 *
 * A styled code is the same file for as long as its slug, its style and the logo stay the same: it is
 * kept a day, and its ETag (a digest of all three, the logo's bytes included) revalidates it after.
 */
import type { Context } from 'hono';
import type { QrStyle } from '../../shared/qr-style.ts';
import { qrStyleQuery } from '../../shared/qr-style.ts';
import type { AppEnv } from '../env.ts';
import { logoPixels, type QrLogo, styledQrPng, styledQrSvg } from '../lib/qr-styled.ts';
import { fetchLogo } from './qr-logo.ts';

/** A day: a style's file changes only with its logo, and the ETag finds that out. */
const STYLED_MAX_AGE = 86_400;
/** A code drawn without the logo it asked for is kept briefly, so a logo that comes back is soon drawn. */
const WITHOUT_LOGO_MAX_AGE = 60;

type Format = 'svg' | 'png';

/** The logo the style asks for, or why there is none. */
async function logoOf(c: Context<AppEnv>, style: QrStyle): Promise<{ logo: QrLogo | null; problem: string | null }> {
  if (!style.logo) return { logo: null, problem: null };
  const url = c.get('config').config.appData[0]?.logo_url;
  if (!url) return { logo: null, problem: 'the app has no logo_url' };
  const result = await fetchLogo(url, new URL(c.req.url).origin, c.env.ASSETS);
  return result.ok ? { logo: result.logo, problem: null } : { logo: null, problem: result.problem };
}

/** A strong ETag of everything a styled code's bytes follow from. */
async function etagOf(format: Format, text: string, style: QrStyle, logo: QrLogo | null): Promise<string> {
  const head = new TextEncoder().encode(`${format}\n${text}\n${qrStyleQuery(style, format)}\n`);
  const all = new Uint8Array(head.byteLength + (logo?.bytes.byteLength ?? 0));
  all.set(head);
  if (logo) all.set(logo.bytes, head.byteLength);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
  return `"qr-${[...digest.subarray(0, 12)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}"`;
}

/** `problem` as a header value: printable ASCII only. */
const headerText = (problem: string) => problem.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);

/** The response for `text`'s code (the link `slug`'s short URL) in `style` as `format`. */
export async function styledQr(
  c: Context<AppEnv>,
  { slug, text, format, style }: { slug: string; text: string; format: Format; style: QrStyle },
): Promise<Response> {
  let { logo, problem } = await logoOf(c, style);
  let pixels = null;
  if (logo && format === 'png') {
    const decoded =
      logo.type === 'image/png' ? logoPixels(logo.bytes) : { problem: `a PNG code takes a PNG logo, not ${logo.type}` };
    if ('problem' in decoded) [logo, problem] = [null, decoded.problem];
    else pixels = decoded;
  }
  const headers: Record<string, string> = {
    'Content-Type': format === 'svg' ? 'image/svg+xml' : 'image/png',
    'Content-Disposition': `inline; filename="qr-${slug}.${format}"`,
  };
  if (problem) {
    headers['Cache-Control'] = `public, max-age=${WITHOUT_LOGO_MAX_AGE}`;
    headers['x-qr-logo'] = `missing: ${headerText(problem)}`;
  } else {
    headers['Cache-Control'] = `public, max-age=${STYLED_MAX_AGE}`;
    headers.ETag = await etagOf(format, text, style, logo);
    if (c.req.header('if-none-match') === headers.ETag) return c.body(null, 304, headers);
  }
  const body = format === 'svg' ? styledQrSvg(text, style, logo) : styledQrPng(text, style, pixels);
  // A short link's URL always fits a code, even at error correction H.
  if (body === null) return c.text('No such link', 404);
  return c.body(body, 200, headers);
}
