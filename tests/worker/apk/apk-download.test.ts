/**
 * `GET /dl/<carrier>/<file>.apk` inside workerd, with a real signed, reserved parent in R2 (built in
 * Node by global-setup.ts). The reference stamp here writes the whole file at once, apart from the
 * worker's streaming code. Property tests log their seed (`FC_SEED` replays it).
 */
import { env, exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { locateReserved } from '../../../scripts/lib/apk/reserve.ts';
import { toBase64Url } from '../../../shared/base64url.ts';
import { parentMetadata } from '../../../worker/apk/parents.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { readCarrier } from '../../fixtures/apk.ts';
import { issueClickId } from '../app-calls.ts';
import { get } from '../helpers.ts';

const PARENT = Uint8Array.from(atob(inject('apkParent')), (c) => c.charCodeAt(0));
const RANGE = locateReserved(PARENT);
const SHA256 = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', PARENT)), (b) =>
  b.toString(16).padStart(2, '0'),
).join('');
const FILE = 'pebble-notes-2.4.0.apk';
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

const clickId = () => toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
const token = (channel: string, fields: Record<string, string> = {}) =>
  encryptToken(JSON.stringify({ channel, ...fields }), DEV_DECODE_KEY);

/** The parent with `carrier` written into its reserved value: u32 LE length, UTF-8, zeros. */
function stamped(carrier: string): Uint8Array {
  const out = PARENT.slice();
  const text = new TextEncoder().encode(carrier);
  new DataView(out.buffer).setUint32(RANGE.offset, text.length, true);
  out.set(text, RANGE.offset + 4);
  return out;
}

async function putParent(
  file = FILE,
  metadata = parentMetadata({
    app: 'com.pebble.notes',
    size: PARENT.length,
    sha256: SHA256,
    version: '2.4.0',
    range: RANGE,
  }),
) {
  await env.APK_PARENTS.put(file, PARENT, { customMetadata: metadata });
}

const download = (carrier: string, headers: Record<string, string> = {}, method = 'GET', file = FILE) =>
  get(`/dl/${carrier}/${file}`, { userAgent: UA.androidChrome, headers, method });

const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

beforeAll(() => {
  console.log(`fast-check seed ${seed} (replay with FC_SEED=${seed})`);
});

beforeEach(async () => {
  await putParent();
});

describe('a stamped download', () => {
  it('is the parent with the carrier in its reserved value, and the same length', async () => {
    const carrier = `${clickId()}.${token('spring')}`;
    const response = await download(carrier);
    expect(response.status).toBe(200);
    const body = await bytesOf(response);
    expect(body).toEqual(stamped(carrier));
    expect(readCarrier(body)).toBe(carrier);
  });

  it('differs from the parent only inside the reserved range', async () => {
    const body = await bytesOf(await download(clickId()));
    const changed = body.findIndex((byte, i) => byte !== PARENT[i]);
    const lastChanged = body.findLastIndex((byte, i) => byte !== PARENT[i]);
    expect(body.length).toBe(PARENT.length);
    expect(changed).toBeGreaterThanOrEqual(RANGE.offset);
    expect(lastChanged).toBeLessThan(RANGE.offset + RANGE.length);
  });

  it('says its length, type, file name and that it takes byte ranges', async () => {
    const response = await download(clickId());
    await response.arrayBuffer();
    expect(
      Object.fromEntries(
        ['content-length', 'content-type', 'content-disposition', 'accept-ranges'].map((h) => [
          h,
          response.headers.get(h),
        ]),
      ),
    ).toEqual({
      'content-length': String(PARENT.length),
      'content-type': 'application/vnd.android.package-archive',
      'content-disposition': `attachment; filename="${FILE}"`,
      'accept-ranges': 'bytes',
    });
  });

  it('answers HEAD with the same headers and no body', async () => {
    const carrier = clickId();
    const [whole, head] = await Promise.all([download(carrier), download(carrier, {}, 'HEAD')]);
    await whole.arrayBuffer();
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PARENT.length));
    expect(head.headers.get('etag')).toBe(whole.headers.get('etag'));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('has one ETag per carrier, the same on every request', async () => {
    const [a, b] = [clickId(), clickId()];
    const tags = [];
    for (const carrier of [a, a, b]) tags.push((await download(carrier, {}, 'HEAD')).headers.get('etag'));
    expect(tags[0]).toMatch(/^"[0-9a-f]{32}"$/);
    expect(tags[1]).toBe(tags[0]);
    expect(tags[2]).not.toBe(tags[0]);
  });

  it('has another ETag once another parent is uploaded under the file name', async () => {
    const carrier = clickId();
    const before = (await download(carrier, {}, 'HEAD')).headers.get('etag');
    await putParent(
      FILE,
      parentMetadata({
        app: 'com.pebble.notes',
        size: PARENT.length,
        sha256: '0'.repeat(64),
        version: '2.4.1',
        range: RANGE,
      }),
    );
    expect((await download(carrier, {}, 'HEAD')).headers.get('etag')).not.toBe(before);
  });
});

describe('Range requests', () => {
  it('answers one range with 206 and exactly those bytes of the stamped file', async () => {
    const carrier = clickId();
    const from = RANGE.offset - 10;
    const response = await download(carrier, { range: `bytes=${from}-${RANGE.offset + 20}` });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${from}-${RANGE.offset + 20}/${PARENT.length}`);
    expect(response.headers.get('content-length')).toBe('31');
    expect(await bytesOf(response)).toEqual(stamped(carrier).slice(from, RANGE.offset + 21));
  });

  it('answers a range past the end with 416 and the size', async () => {
    const response = await download(clickId(), { range: `bytes=${PARENT.length}-` });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${PARENT.length}`);
  });

  it('answers HEAD with a range with 206 and the range’s length', async () => {
    const response = await download(clickId(), { range: 'bytes=-100' }, 'HEAD');
    expect(response.status).toBe(206);
    expect(response.headers.get('content-length')).toBe('100');
  });

  it('sends the whole file for several ranges', async () => {
    const carrier = clickId();
    const response = await download(carrier, { range: 'bytes=0-1,5-9' });
    expect(response.status).toBe(200);
    expect(await bytesOf(response)).toEqual(stamped(carrier));
  });

  it('resumes with If-Range naming the download’s ETag', async () => {
    const carrier = clickId();
    const etag = (await download(carrier, {}, 'HEAD')).headers.get('etag') ?? '';
    const response = await download(carrier, { range: 'bytes=1000-', 'if-range': etag });
    expect(response.status).toBe(206);
    expect(await bytesOf(response)).toEqual(stamped(carrier).slice(1000));
  });

  it('sends the whole file when If-Range names another ETag', async () => {
    const carrier = clickId();
    const other = (await download(clickId(), {}, 'HEAD')).headers.get('etag') ?? '';
    const response = await download(carrier, { range: 'bytes=1000-', 'if-range': other });
    expect(response.status).toBe(200);
    expect(await bytesOf(response)).toEqual(stamped(carrier));
  });

  it('gives the stamped file’s bytes for any carrier and any range', async () => {
    const carrierArb = fc.tuple(
      fc.uint8Array({ minLength: 16, maxLength: 16 }).map(toBase64Url),
      fc.option(fc.constantFrom('spring', 'summer', 'a'.repeat(200)), { nil: undefined }),
    );
    // Ranges clustered around the reserved value, where a wrong offset would show.
    const near = fc.integer({
      min: Math.max(0, RANGE.offset - 5000),
      max: Math.min(PARENT.length - 1, RANGE.offset + 5000),
    });
    const anywhere = fc.integer({ min: 0, max: PARENT.length - 1 });
    const position = fc.oneof(near, anywhere);
    const rangeArb = fc.oneof(
      fc.tuple(position, position).map(([a, b]) => `bytes=${Math.min(a, b)}-${Math.max(a, b)}`),
      position.map((a) => `bytes=${a}-`),
      fc.integer({ min: 1, max: PARENT.length + 100 }).map((n) => `bytes=-${n}`),
    );
    await fc.assert(
      fc.asyncProperty(carrierArb, rangeArb, async ([id, channel], range) => {
        const carrier = channel ? `${id}.${token(channel)}` : id;
        const response = await download(carrier, { range });
        expect(response.status).toBe(206);
        const [, first, last, size] =
          /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get('content-range') ?? '') ?? [];
        expect(Number(size)).toBe(PARENT.length);
        expect(await bytesOf(response)).toEqual(stamped(carrier).slice(Number(first), Number(last) + 1));
      }),
      { seed, numRuns: 60 },
    );
  });
});

describe('the carrier the app reads back', () => {
  it('resolves an install as method apk with the click’s campaign', async () => {
    // The page's link to the download carries a click id the worker issued (docs/attribution.md).
    const id = await issueClickId();
    const body = await bytesOf(await download(`${id}.${token('spring')}`));
    const apk = readCarrier(body) ?? '';
    const response = await exports.default.fetch(
      new Request('https://lander.test/api/a/install', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'okhttp/4.12.0' },
        body: JSON.stringify({
          app: 'com.pebble.notes',
          platform: 'android',
          osVersion: '14',
          screen: { w: 412, h: 915, scale: 2.625 },
          tz: 'Asia/Shanghai',
          langs: ['zh-CN'],
          installId: `install-${id}`,
          carriers: { apk },
        }),
      }),
    );
    expect(await response.json()).toMatchObject({
      matched: true,
      method: 'apk',
      clickId: id,
      data: { channel: 'spring' },
    });
  });
});

describe('no download', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it.each([
    ['a malformed carrier', 'not-a-carrier'],
    ['a click id with spare bits set', 'AAAAAAAAAAAAAAAAAAAAAB'],
    ['a carrier whose token was altered', 'tampered'],
    ['a carrier longer than the reserved value', 'too-long'],
    ['a text that only contains a carrier link', 'contains'],
    ['a malformed percent-encoding', '%E0%A4%A'],
  ])('for %s: 404', async (_, kind) => {
    const valid = `${clickId()}.${token('spring')}`;
    const carrier =
      kind === 'tampered'
        ? `${valid.slice(0, -2)}${valid.endsWith('AA') ? 'BB' : 'AA'}`
        : kind === 'contains'
          ? `note%20https%3A%2F%2Flander.test%2Fi%2F${valid}`
          : kind === 'too-long'
            ? `${clickId()}.${token('long', { a: 'x'.repeat(250), b: 'x'.repeat(250), c: 'x'.repeat(250), e: 'x'.repeat(250) })}`
            : kind;
    const response = await download(carrier);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).not.toContain('android');
  });

  it('for a file name no parent was uploaded under: 404', async () => {
    expect((await download(clickId(), {}, 'GET', 'other-1.0.apk')).status).toBe(404);
  });

  it('for a name that is not an APK file: 404', async () => {
    expect((await download(clickId(), {}, 'GET', 'notes.txt')).status).toBe(404);
  });

  it('for a parent uploaded without its reserved range: 404', async () => {
    await env.APK_PARENTS.put('bare.apk', PARENT);
    expect((await download(clickId(), {}, 'GET', 'bare.apk')).status).toBe(404);
  });
});
