/**
 * QR codes, encoded on the worker with lean-qr so no QR encoder reaches the browser: one encoder
 * (`encodeQr`; `qrModules` gives its modules as rows) and three renderers of its modules.
 * - `qrImage`: the desktop page's code (docs/screens.md), a 1-bit bitmap: one pixel per module, a few
 *   kilobytes even for the densest code, where an SVG path of a long URL runs to tens of kilobytes.
 *   The page shows it scaled up without smoothing (`image-rendering: pixelated`).
 * - `qrSvg`: a short link's code (docs/operators.md), for print and the console.
 * - `qrPng`: the same code as a PNG (lean-qr's own writer), for tools that take no SVG.
 * - `qrTerminal`: a short link's code printed by the CLI, two modules a character.
 *
 * Long texts use error correction L, short ones M (H under a logo, lib/qr-styled.ts). The mask is fixed: choosing the best of the eight
 * costs up to eight times the encoding (milliseconds for a long URL), and every mask is valid and
 * scannable.
 */
import { type Bitmap2D, correction, generate, mode } from 'lean-qr';
import { toPngBuffer } from 'lean-qr/extras/node_export';
import { boundedCache, CACHE_SHARES } from '../lib/bounded-cache.ts';

/** Modules of white around the code, as the standard asks. */
const QUIET_ZONE = 4;
/** The most bytes a QR code holds (version 40, error correction L). */
const MAX_BYTES = 2953;
/** The most bytes a code with error correction H holds (version 40). */
const MAX_BYTES_H = 1273;
/** Up to this many bytes a code is small enough to afford error correction M. */
const SMALL_BYTES = 400;

export interface QrImage {
  /** A `data:image/bmp` URL of the code, one pixel per module, quiet zone included. */
  src: string;
  /** CSS pixels to show it at: 200, or two per module for a dense code, so a camera tells them apart. */
  size: number;
}

/** The smallest the code is shown, in CSS pixels. */
const MIN_DISPLAY = 200;

const encoder = new TextEncoder();
const images = boundedCache<QrImage | null>({
  maxBytes: CACHE_SHARES.qrCodes,
  sizeOf: (image) => 2 * (image?.src.length ?? 0),
});

/**
 * `text`'s QR code without the quiet zone, or null when it is too long for any; `high` asks for error
 * correction H, which a code with a logo over its centre needs (lib/qr-styled.ts).
 */
function encodeQr(text: string, high = false): Bitmap2D | null {
  const bytes = encoder.encode(text);
  if (bytes.byteLength > (high ? MAX_BYTES_H : MAX_BYTES)) return null;
  // One level, never raised to a higher one that would fit the same version, and one mask.
  const level = high ? correction.H : bytes.byteLength <= SMALL_BYTES ? correction.M : correction.L;
  return generate(mode.bytes(bytes), { minCorrectionLevel: level, maxCorrectionLevel: level, mask: 0 });
}

/**
 * The modules of `text`'s QR code (true = dark), without the quiet zone, with error correction H when
 * `high`; null when it is too long for any.
 */
export function qrModules(text: string, high = false): boolean[][] | null {
  const code = encodeQr(text, high);
  if (!code) return null;
  // Plain loops: `Array.from` with a mapping function cost twice the encoding itself.
  const modules: boolean[][] = [];
  for (let y = 0; y < code.size; y += 1) {
    const row: boolean[] = [];
    for (let x = 0; x < code.size; x += 1) row.push(code.get(x, y));
    modules.push(row);
  }
  return modules;
}

function build(text: string): QrImage | null {
  const code = encodeQr(text);
  if (!code) return null;
  const modules = code.size + 2 * QUIET_ZONE;
  return { src: `data:image/bmp;base64,${btoa(bitmap(code))}`, size: Math.max(MIN_DISPLAY, 2 * modules) };
}

/** The page's QR code of `text` (remembered per isolate), or null when it is too long for any QR code. */
export function qrImage(text: string): QrImage | null {
  const kept = images.get(text);
  if (kept !== undefined) return kept;
  const image = build(text);
  images.set(text, image);
  return image;
}

/** `code` inside its quiet zone, as a 1-bit BMP file, in a binary string for `btoa`. */
function bitmap(code: Bitmap2D): string {
  const size = code.size + 2 * QUIET_ZONE;
  const rowBytes = Math.ceil(size / 32) * 4;
  const header = new DataView(new ArrayBuffer(62));
  const pixelsAt = 62;
  const fileSize = pixelsAt + rowBytes * size;
  header.setUint16(0, 0x424d); // "BM"
  header.setUint32(2, fileSize, true);
  header.setUint32(10, pixelsAt, true);
  header.setUint32(14, 40, true); // BITMAPINFOHEADER
  header.setInt32(18, size, true);
  header.setInt32(22, size, true); // positive: rows are stored bottom-up
  header.setUint16(26, 1, true); // planes
  header.setUint16(28, 1, true); // bits per pixel
  header.setUint32(34, rowBytes * size, true);
  header.setUint32(46, 2, true); // palette entries
  // Palette: index 0 white, index 1 black (BGRA each).
  header.setUint32(54, 0xffffff00);
  header.setUint32(58, 0x00000000);
  let out = '';
  for (let i = 0; i < 62; i += 1) out += String.fromCharCode(header.getUint8(i));
  const row = new Uint8Array(rowBytes);
  for (let y = size - 1; y >= 0; y -= 1) {
    row.fill(0);
    const line = y - QUIET_ZONE;
    // Rows of the quiet zone stay white.
    for (let x = 0; line >= 0 && line < code.size && x < code.size; x += 1) {
      const at = x + QUIET_ZONE;
      if (code.get(x, line)) row[at >> 3] = (row[at >> 3] ?? 0) | (0x80 >> (at & 7));
    }
    out += String.fromCharCode(...row);
  }
  return out;
}

/**
 * The QR code of `text` as an SVG document, or null when it is too long for any: one path, each run
 * of dark modules in a row one rectangle, in a viewBox of modules with the quiet zone around.
 */
export function qrSvg(text: string): string | null {
  const data = qrModules(text);
  if (!data) return null;
  const size = data.length + 2 * QUIET_ZONE;
  let path = '';
  data.forEach((row, y) => {
    for (let x = 0; x < row.length; x += 1) {
      if (!row[x]) continue;
      let run = 1;
      while (row[x + run]) run += 1;
      path += `M${x + QUIET_ZONE} ${y + QUIET_ZONE}h${run}v1h-${run}z`;
      x += run - 1;
    }
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
  );
}

/** Pixels a module in `qrPng`: about 400 px for a short link's code, sharp when printed a few centimetres wide. */
const PNG_SCALE = 12;

/**
 * The QR code of `text` as a PNG file (black on white, the quiet zone around, `PNG_SCALE` pixels a
 * module), or null when it is too long for any.
 */
export function qrPng(text: string): Uint8Array<ArrayBuffer> | null {
  const code = encodeQr(text);
  if (!code) return null;
  // A copy on a plain ArrayBuffer: the writer's Buffer may share a pooled one, which a body must not send.
  return Uint8Array.from(toPngBuffer(code, { on: [0, 0, 0], off: [255, 255, 255], pad: QUIET_ZONE, scale: PNG_SCALE }));
}

/**
 * The QR code of `text` for a terminal, or null when it is too long for any: two rows of modules a
 * line in half blocks (`█ ▀ ▄`), light modules lit, as a dark terminal shows a code a camera reads,
 * with `quiet` light modules around.
 */
export function qrTerminal(text: string, quiet = 2): string | null {
  const data = qrModules(text);
  if (!data) return null;
  const size = data.length + 2 * quiet;
  // Out of the code is light, but past the last row (an odd count): it is left unlit.
  const light = (x: number, y: number): boolean => y < size && !(data[y - quiet]?.[x - quiet] ?? false);
  const lines: string[] = [];
  for (let y = 0; y < size; y += 2) {
    let line = '';
    for (let x = 0; x < size; x += 1) {
      const [top, bottom] = [light(x, y), light(x, y + 1)];
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(line);
  }
  return lines.join('\n');
}
