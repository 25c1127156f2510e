/**
 * `GET /dl/<carrier>/<file>.apk` (and `HEAD`): the parent APK uploaded under `<file>`, streamed from
 * R2 with the carrier written into its reserved value (docs/apk-stamping.md). The copy has the
 * parent's length, so `Content-Length`, one `Range`, `If-Range` and resumed downloads work; its ETag
 * names the parent and the carrier, so a resumed download continues the same file. Only a carrier
 * that resolves (a strict click id, a token that verifies) gets a file: anything else is a 404, never
 * a parent with someone else's stamp.
 */
import { Hono } from 'hono';
import { APK_FILE_NAME } from '../../shared/apk-parent.ts';
import { carrierIn, resolveCarrier } from '../attribution/carrier.ts';
import type { AppEnv } from '../env.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { R2_HEAD_BUDGET_MS } from '../reliability/budget.ts';
import { settingsOf } from '../settings.ts';
import { chooseRange } from './byte-range.ts';
import { readParentMetadata } from './parents.ts';
import { stampBytes } from './stamp.ts';
import { stampedBody } from './stamped-body.ts';

const APK_TYPE = 'application/vnd.android.package-archive';

/** A strong ETag per parent and carrier: the first 128 bits of SHA-256(parent's SHA-256, carrier). */
async function etagOf(parentSha256: string, carrier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${parentSha256}/${carrier}`));
  const hex = Array.from(new Uint8Array(digest).subarray(0, 16), (byte) => byte.toString(16).padStart(2, '0'));
  return `"${hex.join('')}"`;
}

/** The 1,024-byte stamp of a carrier that resolves, or null. */
function stampOf(carrier: string, decodeKey: string | undefined): Uint8Array | null {
  if (carrierIn(carrier) !== carrier || !resolveCarrier(carrier, decodeKey)) return null;
  try {
    return stampBytes(carrier);
  } catch {
    // Longer than the reserved value holds: no download can carry it.
    return null;
  }
}

/** Mounted at `/dl`. */
export const apkDownload = new Hono<AppEnv>();

apkDownload.get('/:carrier/:file', async (c) => {
  const { carrier, file } = c.req.param();
  const notFound = (why: string) => c.text(`No download here: ${why}`, 404, { 'cache-control': 'no-store' });
  if (!APK_FILE_NAME.test(file)) return notFound('not an APK file name');
  const stamp = stampOf(carrier, settingsOf(c.env).decodeKey);
  if (!stamp) return notFound('the link is not valid');

  // An R2 that fails or hangs is a 503 the download manager retries (docs/reliability.md).
  const parent = await withinBudget(c.env.APK_PARENTS.head(file), R2_HEAD_BUDGET_MS);
  const facts = parent && readParentMetadata(parent);
  if (!parent || !facts) {
    if (parent) console.error(`APK parent ${file} has no valid metadata: upload it again with npm run apk:upload`);
    return notFound('no such APK');
  }
  const size = parent.size;
  const etag = await etagOf(facts.sha256, carrier);
  const headers = new Headers({
    'content-type': APK_TYPE,
    'content-disposition': `attachment; filename="${file}"`,
    'accept-ranges': 'bytes',
    etag,
    // Every carrier is its own file: no shared cache keeps it, and no proxy recompresses it.
    'cache-control': 'private, no-transform',
  });
  const range = chooseRange(c.req.header('range'), c.req.header('if-range'), etag, size);
  if (range.kind === 'unsatisfiable') {
    headers.set('content-range', `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const offset = range.kind === 'part' ? range.offset : 0;
  const length = range.kind === 'part' ? range.length : size;
  headers.set('content-length', String(length));
  if (range.kind === 'part') headers.set('content-range', `bytes ${offset}-${offset + length - 1}/${size}`);
  const status = range.kind === 'part' ? 206 : 200;
  if (c.req.method === 'HEAD') return new Response(null, { status, headers });

  // Every piece is read from the object the head described: a parent replaced in between is not
  // stamped at the old offset.
  const bucket = c.env.APK_PARENTS;
  const read = async (from: number, bytes: number) => {
    const piece = await bucket.get(file, {
      range: { offset: from, length: bytes },
      onlyIf: { etagMatches: parent.etag },
    });
    if (!piece || !('body' in piece)) throw new Error(`APK parent ${file} was replaced during a download`);
    return piece.body;
  };
  const body = stampedBody(read, { offset, length }, facts.range, stamp);
  return new Response(body, { status, headers });
});
