/**
 * A short link's QR code in a style (shared/qr-style.ts, docs/operators.md#qr-code-styles): its
 * colours, its quiet zone and the app's logo in the centre. The plain code is lib/qr-code.ts's, byte
 * for byte; these renderers draw only styled ones.
 *
 * A logo raises error correction to H (about 30 % of the codewords recoverable) and covers a centred
 * square of at most `LOGO_AREA` of the code's modules, an odd number of modules a side, on a pad of
 * the background colour one module wide, never over the finder patterns or the format information
 * (rows and columns 0–8 from each corner). Modules under the square are not drawn.
 * The PNG is composited here: the logo PNG decoded and the image encoded with fast-png.
 */
import { convertIndexedToRgb, decode, encode } from 'fast-png';
import type { QrStyle } from '../../shared/qr-style.ts';
import { qrModules } from './qr-code.ts';

/**
 * The most of the modules' area a logo's square (its pad included) covers: at a fifth, a mid-tone
 * style failed to decode at one scale that 15 % decodes at every margin and scale (docs/operators.md#qr-code-styles).
 */
export const LOGO_AREA = 0.15;
/** The first row and column from an edge the logo's square may start at: past the finder, separator and format information. */
const CLEAR_OF_FINDERS = 9;

/** A logo to draw: its bytes and their media type (campaign/qr-logo.ts sniffs it). */
export interface QrLogo {
  bytes: Uint8Array;
  type: string;
}

/** A square in modules: its first row and column, and its side. */
interface Square {
  at: number;
  side: number;
}

/** The logo's square in a code of `size` modules, or null when the code is too small to hold one. */
export function logoSquare(size: number): Square | null {
  let side = Math.floor(Math.sqrt(LOGO_AREA) * size);
  side = Math.min(side, size - 2 * CLEAR_OF_FINDERS);
  // Odd, so it centres on a module of an odd-sized code.
  if (side % 2 === 0) side -= 1;
  return side >= 3 ? { at: (size - side) / 2, side } : null;
}

/** What a styled code draws: its modules and, under a logo, the square left for it. */
function layout(text: string, style: QrStyle, logo: boolean) {
  const modules = qrModules(text, logo);
  if (!modules) return null;
  const square = logo ? logoSquare(modules.length) : null;
  const inSquare = (x: number, y: number) =>
    square !== null && x >= square.at && x < square.at + square.side && y >= square.at && y < square.at + square.side;
  return { modules, square, inSquare, total: modules.length + 2 * style.margin };
}

/** Base64 of `bytes`, in chunks: spreading a large array into one call overflows the stack. */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/**
 * The QR code of `text` in `style` as an SVG document, or null when it is too long for any: `logo`,
 * when given, embedded as a data: URL, so a saved file shows it offline.
 */
export function styledQrSvg(text: string, style: QrStyle, logo: QrLogo | null): string | null {
  const drawn = layout(text, style, logo !== null);
  if (!drawn) return null;
  const { modules, square, inSquare, total } = drawn;
  const m = style.margin;
  let path = '';
  modules.forEach((row, y) => {
    for (let x = 0; x < row.length; x += 1) {
      if (!row[x] || inSquare(x, y)) continue;
      let run = 1;
      while (row[x + run] && !inSquare(x + run, y)) run += 1;
      path += `M${x + m} ${y + m}h${run}v1h-${run}z`;
      x += run - 1;
    }
  });
  const image =
    logo && square
      ? `<image x="${square.at + m + 1}" y="${square.at + m + 1}" width="${square.side - 2}" height="${square.side - 2}" ` +
        `preserveAspectRatio="xMidYMid meet" xlink:href="data:${logo.type};base64,${base64(logo.bytes)}"/>`
      : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 ${total} ${total}" shape-rendering="crispEdges">` +
    `<rect width="${total}" height="${total}" fill="${style.bg}"/><path d="${path}" fill="${style.fg}"/>${image}</svg>`
  );
}

/** `#rrggbb` as its three channels. */
function rgb(colour: string): [number, number, number] {
  return [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16)) as [number, number, number];
}

/** A decoded logo: 8-bit RGBA pixels. */
interface Pixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** A PNG logo's pixels as 8-bit RGBA, or why it cannot be drawn. */
export function logoPixels(bytes: Uint8Array): Pixels | { problem: string } {
  let png: ReturnType<typeof decode>;
  try {
    png = decode(bytes);
  } catch (error) {
    return { problem: `the logo is not a readable PNG (${error instanceof Error ? error.message : String(error)})` };
  }
  const { width, height } = png;
  let data: ArrayLike<number> = png.data;
  let channels = png.channels;
  if (png.palette) {
    data = convertIndexedToRgb(png);
    channels = data.length / (width * height);
  } else if (png.depth < 8) {
    return { problem: `the logo's ${png.depth}-bit grey levels are not drawn; save it as an 8-bit PNG` };
  }
  // 16-bit samples keep their high byte.
  const shift = !png.palette && png.depth === 16 ? 8 : 0;
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i += 1) {
    const sample = (c: number) => (data[i * channels + c] ?? 0) >> shift;
    const grey = channels <= 2;
    rgba[i * 4] = sample(0);
    rgba[i * 4 + 1] = grey ? sample(0) : sample(1);
    rgba[i * 4 + 2] = grey ? sample(0) : sample(2);
    rgba[i * 4 + 3] = channels === 2 ? sample(1) : channels === 4 ? sample(3) : 255;
  }
  return { width, height, rgba };
}

/**
 * Draws `logo` into the `side`-pixel square at (`left`, `top`) of the RGB `image` `width` wide, kept in
 * proportion and centred, each pixel the average of the logo's pixels under it, blended over what is there.
 */
function drawLogo(image: Uint8Array, width: number, logo: Pixels, left: number, top: number, side: number) {
  const fit = side / Math.max(logo.width, logo.height);
  const w = Math.max(1, Math.round(logo.width * fit));
  const h = Math.max(1, Math.round(logo.height * fit));
  const [x0, y0] = [left + Math.floor((side - w) / 2), top + Math.floor((side - h) / 2)];
  const { rgba } = logo;
  for (let ty = 0; ty < h; ty += 1) {
    const sy0 = Math.floor((ty * logo.height) / h);
    const sy1 = Math.max(Math.floor(((ty + 1) * logo.height) / h), sy0 + 1);
    for (let tx = 0; tx < w; tx += 1) {
      const sx0 = Math.floor((tx * logo.width) / w);
      const sx1 = Math.max(Math.floor(((tx + 1) * logo.width) / w), sx0 + 1);
      // Colours weighted by their alpha, so transparent pixels lend no colour.
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = sy0; sy < sy1; sy += 1) {
        for (let at = (sy * logo.width + sx0) * 4, end = (sy * logo.width + sx1) * 4; at < end; at += 4) {
          const alpha = rgba[at + 3] as number;
          r += (rgba[at] as number) * alpha;
          g += (rgba[at + 1] as number) * alpha;
          b += (rgba[at + 2] as number) * alpha;
          a += alpha;
        }
      }
      if (a === 0) continue;
      const cover = a / (255 * (sy1 - sy0) * (sx1 - sx0));
      const at = ((y0 + ty) * width + x0 + tx) * 3;
      image[at] = (r / a) * cover + (image[at] as number) * (1 - cover);
      image[at + 1] = (g / a) * cover + (image[at + 1] as number) * (1 - cover);
      image[at + 2] = (b / a) * cover + (image[at + 2] as number) * (1 - cover);
    }
  }
}

/**
 * The QR code of `text` in `style` as a PNG file (`style.scale` pixels a module), `logo` composited in
 * the centre when given; null when the text is too long for any code. Without a logo it is a two-colour
 * image, one bit a pixel; with one, 8-bit RGB.
 */
export function styledQrPng(text: string, style: QrStyle, logo: Pixels | null): Uint8Array<ArrayBuffer> | null {
  const drawn = layout(text, style, logo !== null);
  if (!drawn) return null;
  const { modules, square, inSquare, total } = drawn;
  const { scale, margin } = style;
  const width = total * scale;
  const palette = [rgb(style.bg), rgb(style.fg)];
  // Each row of modules is one row of pixels, copied `scale` times: 1 bit a pixel, or 3 bytes.
  const bits = logo === null;
  const rowBytes = bits ? Math.ceil(width / 8) : width * 3;
  const image = new Uint8Array(rowBytes * width);
  const row = new Uint8Array(rowBytes);
  for (let y = 0; y < total; y += 1) {
    const line = modules[y - margin];
    for (let x = 0; x < total; x += 1) {
      const dark = line?.[x - margin] === true && !inSquare(x - margin, y - margin);
      for (let px = x * scale; px < (x + 1) * scale; px += 1) {
        if (bits) {
          if (dark) row[px >> 3] = (row[px >> 3] as number) | (0x80 >> (px & 7));
        } else row.set(palette[dark ? 1 : 0] as number[], px * 3);
      }
    }
    for (let dy = 0; dy < scale; dy += 1) image.set(row, (y * scale + dy) * rowBytes);
    row.fill(0);
  }
  if (bits) {
    return Uint8Array.from(encode({ width, height: width, data: image, channels: 1, depth: 1, palette }));
  }
  if (square) {
    const corner = (square.at + margin + 1) * scale;
    drawLogo(image, width, logo, corner, corner, (square.side - 2) * scale);
  }
  return Uint8Array.from(encode({ width, height: width, data: image, channels: 3, depth: 8 }));
}
