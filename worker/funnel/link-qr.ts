/**
 * A short link's QR code as SVG (docs/operators.md), for print and for the console: one path, each
 * run of dark modules in a row one rectangle, in a viewBox of modules with the quiet zone around.
 */
import { encode } from 'uqr';

const QUIET_ZONE = 4;

/** The QR code of `text` as an SVG document. */
export function qrSvg(text: string): string {
  const { data } = encode(text, { ecc: 'M', border: 0 });
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
