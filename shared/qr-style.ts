/**
 * A short link's QR code style (docs/operators.md#qr-code-styles): its colours, quiet zone, centre
 * logo and PNG scale, read from `/s/<slug>.svg|.png`'s query and written by the console. The worker
 * refuses what this module refuses, and the console offers only what it accepts, so every style on
 * offer is one a scanner reads.
 */

export interface QrStyle {
  /** The dark modules' colour, `#rrggbb`. */
  fg: string;
  /** The light modules' and the quiet zone's colour, `#rrggbb`. */
  bg: string;
  /** The quiet zone, in modules. */
  margin: number;
  /** The app's logo in the centre (error correction H). */
  logo: boolean;
  /** Pixels a module in the PNG (the SVG scales freely). */
  scale: number;
}

/** Black on white, four modules of quiet zone as the standard asks, 12 pixels a module: today's code. */
export const PLAIN_QR_STYLE: QrStyle = { fg: '#000000', bg: '#ffffff', margin: 4, logo: false, scale: 12 };

export const QR_MARGIN = { min: 2, max: 16 } as const;
/** 2 px a module still prints sharp at its size; 24 keeps a dense code's PNG under ~1,500 px a side. */
export const QR_SCALE = { min: 2, max: 24 } as const;
/**
 * The least contrast between `fg` and `bg`: WCAG 2's 4.5:1 (success criterion 1.4.3). WCAG's 3:1 for
 * graphics is not enough for a scanner's binariser: of 6,000 random 3:1 styles about 3 % did not
 * decode, mid-tone colours mostly (docs/operators.md#qr-code-styles).
 */
export const MIN_QR_CONTRAST = 4.5;
/**
 * The least difference, of 255, between the grey levels a scanner sees: BT.709's weights on the
 * sRGB values, as jsQR and ZXing's binarisers compute them. WCAG's ratio is of linear light, so a
 * saturated ground (hot pink, pure green) can pass 4.5:1 and still look dark to a scanner: 2 in
 * 12,000 such styles failed; with this rule too, none of 12,000 did.
 */
export const MIN_QR_GREY_STEP = 100;

const COLOUR = /^#[0-9a-f]{6}$/;

/** WCAG 2's relative luminance of `#rrggbb`. */
function luminance(colour: string): number {
  const channel = (at: number) => {
    const value = Number.parseInt(colour.slice(at, at + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The grey level a scanner sees for `#rrggbb`, 0 to 255 (BT.709 weights on the sRGB values). */
function scannerGrey(colour: string): number {
  const channel = (at: number) => Number.parseInt(colour.slice(at, at + 2), 16);
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2's contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Why `fg` on `bg` would not scan, as `field: reason`, or null when it scans. */
export function colourProblem(fg: string, bg: string): string | null {
  if (luminance(fg) >= luminance(bg)) {
    return 'fg: must be darker than bg (most scanners read only dark modules on a light ground)';
  }
  const ratio = contrastRatio(fg, bg);
  if (ratio < MIN_QR_CONTRAST) {
    return `fg: contrast with bg is ${ratio.toFixed(2)}:1, a scanner needs at least ${MIN_QR_CONTRAST}:1`;
  }
  const step = scannerGrey(bg) - scannerGrey(fg);
  if (step < MIN_QR_GREY_STEP) {
    return `fg: a scanner sees fg and bg only ${Math.floor(step)} grey levels apart of 255, it needs at least ${MIN_QR_GREY_STEP}`;
  }
  return null;
}

export type QrStyleResult = { ok: true; style: QrStyle } | { ok: false; error: string };

/** A colour parameter: `#rrggbb` or `rrggbb` (a `#` must be escaped in a URL), any case. */
function colourOf(name: string, raw: string | undefined, fallback: string): string | { error: string } {
  if (raw === undefined) return fallback;
  const colour = `#${raw.replace(/^#/, '').toLowerCase()}`;
  return COLOUR.test(colour) ? colour : { error: `${name}: must be a colour #rrggbb` };
}

/** A whole-number parameter within `bounds`. */
function numberOf(name: string, raw: string | undefined, fallback: number, bounds: { min: number; max: number }) {
  if (raw === undefined) return fallback;
  const value = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (value >= bounds.min && value <= bounds.max) return value;
  return { error: `${name}: must be a whole number from ${bounds.min} to ${bounds.max}` };
}

/** The style a query asks for (absent parameters keep the plain code's), or its first problem as `field: reason`. */
export function parseQrStyle(query: (name: string) => string | undefined): QrStyleResult {
  const fg = colourOf('fg', query('fg'), PLAIN_QR_STYLE.fg);
  if (typeof fg !== 'string') return { ok: false, ...fg };
  const bg = colourOf('bg', query('bg'), PLAIN_QR_STYLE.bg);
  if (typeof bg !== 'string') return { ok: false, ...bg };
  const margin = numberOf('margin', query('margin'), PLAIN_QR_STYLE.margin, QR_MARGIN);
  if (typeof margin !== 'number') return { ok: false, ...margin };
  const scale = numberOf('scale', query('scale'), PLAIN_QR_STYLE.scale, QR_SCALE);
  if (typeof scale !== 'number') return { ok: false, ...scale };
  const logo = query('logo');
  if (logo !== undefined && logo !== '0' && logo !== '1') return { ok: false, error: 'logo: must be 0 or 1' };
  const problem = colourProblem(fg, bg);
  if (problem) return { ok: false, error: problem };
  return { ok: true, style: { fg, bg, margin, scale, logo: logo === '1' } };
}

/** Whether `style` draws the plain code (its scale aside for an SVG). */
export function isPlainQrStyle(style: QrStyle, format: 'svg' | 'png'): boolean {
  return (
    style.fg === PLAIN_QR_STYLE.fg &&
    style.bg === PLAIN_QR_STYLE.bg &&
    style.margin === PLAIN_QR_STYLE.margin &&
    !style.logo &&
    (format === 'svg' || style.scale === PLAIN_QR_STYLE.scale)
  );
}

/**
 * The query of `style` for `format`, only the parameters that differ from the plain code's, in one
 * order (`?fg=1a2b3c&logo=1`), or '' for the plain code: one URL, and so one cached file, a style.
 */
export function qrStyleQuery(style: QrStyle, format: 'svg' | 'png'): string {
  const parts: string[] = [];
  if (style.fg !== PLAIN_QR_STYLE.fg) parts.push(`fg=${style.fg.slice(1)}`);
  if (style.bg !== PLAIN_QR_STYLE.bg) parts.push(`bg=${style.bg.slice(1)}`);
  if (style.margin !== PLAIN_QR_STYLE.margin) parts.push(`margin=${style.margin}`);
  if (style.logo) parts.push('logo=1');
  if (format === 'png' && style.scale !== PLAIN_QR_STYLE.scale) parts.push(`scale=${style.scale}`);
  return parts.length ? `?${parts.join('&')}` : '';
}
