/**
 * The desktop's QR code (docs/screens.md), encoded on the worker with uqr so no QR encoder reaches
 * the browser, and drawn as a 1-bit bitmap: one pixel per module, a few kilobytes even for the
 * densest code, where an SVG path of a long URL runs to tens of kilobytes. The page shows it scaled
 * up without smoothing (`image-rendering: pixelated`).
 *
 * What it encodes is the page's address: the same path, the signed token and the campaign's plain
 * parameters, never click ids or tracking parameters, which no page reads (docs/screens.md). Long texts use error correction L, short ones M. The mask is fixed:
 * choosing the best of the eight costs up to eight times the encoding (milliseconds for a long
 * URL), and every mask is valid and scannable.
 */
import { encode } from 'uqr';
import { boundedCache, CACHE_SHARES } from '../lib/bounded-cache.ts';

/** Modules of white around the code, as the standard asks. */
const QUIET_ZONE = 4;
/** The most bytes a QR code holds (version 40, error correction L). */
const MAX_BYTES = 2953;
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

function build(text: string): QrImage | null {
  const bytes = encoder.encode(text);
  if (bytes.byteLength > MAX_BYTES) return null;
  // Bytes rather than text, and no border: uqr then skips choosing segment modes and re-shifting
  // every row to add the quiet zone, which the bitmap adds for free.
  const ecc = bytes.byteLength <= SMALL_BYTES ? 'M' : 'L';
  const { data } = encode(Array.from(bytes), { ecc, border: 0, maskPattern: 0 });
  const modules = data.length + 2 * QUIET_ZONE;
  return { src: `data:image/bmp;base64,${btoa(bitmap(data))}`, size: Math.max(MIN_DISPLAY, 2 * modules) };
}

/** The QR code of `text`, or null when it is too long for any QR code. */
export function qrImage(text: string): QrImage | null {
  const kept = images.get(text);
  if (kept !== undefined) return kept;
  const image = build(text);
  images.set(text, image);
  return image;
}

/** `modules` (true = dark) inside its quiet zone, as a 1-bit BMP file, in a binary string for `btoa`. */
function bitmap(modules: boolean[][]): string {
  const size = modules.length + 2 * QUIET_ZONE;
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
    const line = modules[y - QUIET_ZONE] ?? [];
    for (let x = 0; x < line.length; x += 1) {
      const at = x + QUIET_ZONE;
      if (line[x]) row[at >> 3] = (row[at >> 3] ?? 0) | (0x80 >> (at & 7));
    }
    out += String.fromCharCode(...row);
  }
  return out;
}
