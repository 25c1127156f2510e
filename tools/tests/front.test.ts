/** The benchmark server's front: build files from the disk service, everything else to the worker. */
import { describe, expect, it } from 'vitest';
import front, { assets, chooseEncoding, contentType, type FrontEnv } from '../bench/workers/front.ts';

/** A stand-in for a service binding that records what reached it. */
function service(answer: (request: Request) => Response): Fetcher & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input, init);
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      return Promise.resolve(answer(request));
    },
    connect() {
      throw new Error('not used');
    },
  };
}

function setup() {
  const disk = service(
    (request) =>
      new Response(request.method === 'HEAD' ? null : 'bytes', {
        headers: { 'content-type': 'application/octet-stream', 'content-length': '5' },
      }),
  );
  const worker = service(() => new Response('page', { headers: { 'content-type': 'text/html' } }));
  const env: FrontEnv = { DISK: disk, WORKER: worker, FILES: ['/logo.png', '/assets/entry-abc.js', '/my file.txt'] };
  const get = (path: string, method = 'GET', headers: HeadersInit = {}) =>
    front.fetch(new Request(`http://127.0.0.1${path}`, { method, headers }), env);
  return { disk, worker, env, get };
}

describe('bench front', () => {
  it('serves a build file from the disk service with its content type and cache policy', async () => {
    const { disk, worker, get } = setup();
    const response = await get('/assets/entry-abc.js');
    expect(await response.text()).toBe('bytes');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(response.headers.get('content-length')).toBe('5');
    expect(disk.seen).toEqual(['GET /assets/entry-abc.js']);
    expect(worker.seen).toEqual([]);
  });

  it('sends every other path, and the query string, to the worker', async () => {
    const { disk, worker, get } = setup();
    expect(await (await get('/')).text()).toBe('page');
    await get('/landing?d=x');
    await get('/assets/missing.js');
    expect(worker.seen).toEqual(['GET /', 'GET /landing', 'GET /assets/missing.js']);
    expect(disk.seen).toEqual([]);
  });

  it('matches percent-encoded file names and answers HEAD from the disk service', async () => {
    const { disk, get } = setup();
    await get('/my%20file.txt', 'HEAD');
    expect(disk.seen).toEqual(['HEAD /my%20file.txt']);
  });

  it('leaves methods other than GET and HEAD, and broken encodings, to the worker', async () => {
    const { disk, worker, get } = setup();
    await get('/logo.png', 'POST');
    await get('/%E0%A4%A');
    expect(worker.seen).toEqual(['POST /logo.png', 'GET /%E0%A4%A']);
    expect(disk.seen).toEqual([]);
  });

  it('gives the worker an ASSETS binding that answers 404 outside the build', async () => {
    const { env } = setup();
    const hit = await assets.fetch(new Request('http://assets/logo.png'), env);
    expect(hit.headers.get('content-type')).toBe('image/png');
    expect((await assets.fetch(new Request('http://assets/'), env)).status).toBe(404);
  });

  it('names content types by extension, octet-stream when unknown', () => {
    expect(contentType('/a.CSS')).toBe('text/css; charset=utf-8');
    expect(contentType('/a.woff2')).toBe('font/woff2');
    expect(contentType('/LICENSE')).toBe('application/octet-stream');
  });

  it('marks text answers for compression when the client accepts it, brotli first, as Cloudflare does', async () => {
    const { get } = setup();
    const page = await get('/', 'GET', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('vary')).toBe('Accept-Encoding');
    const script = await get('/assets/entry-abc.js', 'GET', { 'accept-encoding': 'gzip' });
    expect(script.headers.get('content-encoding')).toBe('gzip');
    // workerd encodes the body; the length of the file on disk no longer applies.
    expect(script.headers.get('content-length')).toBeNull();
    expect(await script.text()).toBe('bytes');
  });

  it('leaves images, bodiless answers and clients that accept no encoding alone', async () => {
    const { get } = setup();
    expect((await get('/logo.png', 'GET', { 'accept-encoding': 'br' })).headers.get('content-encoding')).toBeNull();
    const plain = await get('/', 'GET');
    expect(plain.headers.get('content-encoding')).toBeNull();
    // The worker's bytes as they are suit any client: the front neither copies nor adds to the headers.
    expect(plain.headers.get('vary')).toBeNull();
    expect((await get('/', 'GET', { 'accept-encoding': 'identity' })).headers.get('content-encoding')).toBeNull();
    expect(
      (await get('/my%20file.txt', 'HEAD', { 'accept-encoding': 'br' })).headers.get('content-encoding'),
    ).toBeNull();
  });

  it('reads Accept-Encoding with weights and refusals', () => {
    expect(chooseEncoding('gzip, br;q=0')).toBe('gzip');
    expect(chooseEncoding('BR;q=0.5, gzip;q=1')).toBe('br');
    expect(chooseEncoding('deflate, zstd')).toBeUndefined();
    expect(chooseEncoding(null)).toBeUndefined();
  });
});
