/**
 * The fault matrix's R2 rows for stamped downloads (docs/reliability.md): an R2 read cut mid-stream
 * ends the response as a failed download (the body errors before its `Content-Length`), and a
 * retried Range request resumes it to the whole, correct file; an R2 that throws or hangs answers
 * 503 with `Retry-After` within its budget; a slow one still serves the file.
 */
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { locateReserved } from '../../../scripts/lib/apk/reserve.ts';
import { toBase64Url } from '../../../shared/base64url.ts';
import { parentMetadata } from '../../../worker/apk/parents.ts';
import { R2_HEAD_BUDGET_MS } from '../../../worker/reliability/budget.ts';
import { UA } from '../../fixtures/agents.ts';
import { cutR2, type Fault, faultyR2, Injector } from '../faulty-bindings.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';

const PARENT = Uint8Array.from(atob(inject('apkParent')), (c) => c.charCodeAt(0));
const RANGE = locateReserved(PARENT);
const FILE = 'pebble-notes-faults.apk';

/** The parent with `carrier` in its reserved value, as the worker stamps it. */
function stamped(carrier: string): Uint8Array {
  const out = PARENT.slice();
  const text = new TextEncoder().encode(carrier);
  new DataView(out.buffer).setUint32(RANGE.offset, text.length, true);
  out.set(text, RANGE.offset + 4);
  return out;
}

beforeAll(async () => {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', PARENT));
  const sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  const metadata = parentMetadata({
    app: 'com.pebble.notes',
    size: PARENT.length,
    sha256,
    version: '2.4.0',
    range: RANGE,
  });
  await env.APK_PARENTS.put(FILE, PARENT, { customMetadata: metadata });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const download = (carrier: string, bucket: R2Bucket, headers: Record<string, string> = {}) =>
  fetchWorker(
    `${ORIGIN}/dl/${carrier}/${FILE}`,
    { headers: { 'user-agent': UA.androidChrome, ...headers } },
    {
      APK_PARENTS: bucket,
    },
  );

/** Reads `res`'s body to its end: the bytes, or the error that ended it first. */
async function drain(res: Response): Promise<{ bytes: Uint8Array; error: unknown }> {
  const reader = res.body?.getReader();
  const parts: Uint8Array[] = [];
  let error: unknown = null;
  try {
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      parts.push(chunk.value);
    }
  } catch (caught) {
    error = caught;
  }
  const bytes = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, error };
}

describe('an R2 read cut mid-stream', () => {
  it('fails the download rather than ending it short, and a Range request resumes it whole', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const carrier = toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
    // The cut falls before the reserved value: the first piece (R2's bytes before the stamp) breaks.
    const cutAt = Math.floor(RANGE.offset / 2);
    const res = await download(carrier, cutR2(env.APK_PARENTS, cutAt));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(PARENT.length));
    const etag = res.headers.get('etag') ?? '';
    const first = await drain(res);
    expect(first.error).not.toBeNull();
    expect(first.bytes.length).toBeLessThan(PARENT.length);
    // The download manager resumes from what it has, for the same file (If-Range).
    const have = first.bytes.length;
    const rest = await download(carrier, env.APK_PARENTS, { range: `bytes=${have}-`, 'if-range': etag });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes ${have}-${PARENT.length - 1}/${PARENT.length}`);
    const second = await drain(rest);
    expect(second.error).toBeNull();
    const whole = new Uint8Array(PARENT.length);
    whole.set(first.bytes);
    whole.set(second.bytes, have);
    expect(whole).toEqual(stamped(carrier));
  });
});

describe.each(['throws', 'hangs', 'slow', 'recovers'] as Fault[])('an R2 that %s', (fault) => {
  it(`answers a download within ${R2_HEAD_BUDGET_MS + 500} ms: the file, or 503 to retry`, {
    timeout: 20_000,
  }, async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const carrier = toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
    const bucket = faultyR2(env.APK_PARENTS, new Injector(fault));
    const started = performance.now();
    const res = await download(carrier, bucket);
    const body = await drain(res);
    const ms = performance.now() - started;
    if (fault === 'slow') {
      expect(res.status).toBe(200);
      expect(body.bytes).toEqual(stamped(carrier));
      return;
    }
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(ms).toBeLessThan(R2_HEAD_BUDGET_MS + 500);
    if (fault === 'recovers') {
      // The retry the 503 asks for gets the file.
      const again = await download(carrier, bucket);
      expect(again.status).toBe(200);
      expect((await drain(again)).bytes).toEqual(stamped(carrier));
    }
  });
});
