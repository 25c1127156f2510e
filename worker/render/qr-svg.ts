/**
 * The desktop's QR code of the page URL (docs/screens.md), as compact SVG markup built on the
 * worker with uqr, so no QR encoder reaches the browser. Encoding costs about a millisecond, so
 * recent URLs are kept per isolate.
 */
import { encode } from 'uqr';
import { boundedCache, CACHE_SHARES, stringBytes } from '../lib/bounded-cache.ts';

const QUIET_ZONE = 4;
/** Longer URLs make a QR code too dense to scan from a screen; they get no code. */
const MAX_URL = 1024;
const cache = boundedCache<string | null>({ maxBytes: CACHE_SHARES.qrCodes, sizeOf: stringBytes });

function build(text: string): string | null {
  if (text.length > MAX_URL) return null;
  let data: boolean[][];
  try {
    data = encode(text, { ecc: 'M', border: 0 }).data;
  } catch {
    return null;
  }
  const size = data.length;
  let d = '';
  // One rectangle per horizontal run of dark modules keeps the path short.
  data.forEach((row, y) => {
    let x = 0;
    while (x < size) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < size && row[x]) x += 1;
      d += `M${start} ${y}h${x - start}v1H${start}z`;
    }
  });
  const box = size + 2 * QUIET_ZONE;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${-QUIET_ZONE} ${-QUIET_ZONE} ${box} ${box}" ` +
    `shape-rendering="crispEdges" aria-hidden="true" focusable="false">` +
    `<path fill="#fff" d="M${-QUIET_ZONE} ${-QUIET_ZONE}h${box}v${box}H${-QUIET_ZONE}z"/>` +
    `<path fill="#000" d="${d}"/></svg>`
  );
}

/** SVG markup of a QR code for `text`, or null when it cannot be encoded legibly. */
export function qrSvg(text: string): string | null {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const svg = build(text);
  cache.set(text, svg);
  return svg;
}
