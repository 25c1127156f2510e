/**
 * The SSR page against a static asset, both through the same front of the same workerd server, in
 * one run (issue 2; the ratio's budget is issue 8's). A wrong status would make the figures
 * meaningless, so both URLs are checked before any load.
 */
import type { BenchSection } from './context.ts';
import { IPHONE_UA } from './context.ts';
import { describeLoad, type LoadOptions, load } from './load.ts';
import { residentBytes } from './machine.ts';

/** A small file every build has; the page's own icon. */
export const STATIC_ASSET = '/logo.png';

async function expect(url: string, headers: Record<string, string>, type: string): Promise<number> {
  const response = await fetch(url, { headers, redirect: 'manual' });
  const bytes = (await response.arrayBuffer()).byteLength;
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !contentType.startsWith(type)) {
    throw new Error(`${url} answered ${response.status} ${contentType}; expected 200 ${type}`);
  }
  return bytes;
}

export const http: BenchSection = {
  title: 'HTTP on workerd (production build, one front for both)',
  async run({ url, server, duration, connections, threads }) {
    const headers = { 'user-agent': IPHONE_UA, 'accept-language': 'en-US,en;q=0.9' };
    const pageBytes = await expect(`${url}/`, headers, 'text/html');
    const assetBytes = await expect(`${url}${STATIC_ASSET}`, headers, 'image/png');

    const run = (path: string, seconds: number): ReturnType<typeof load> => {
      const options: LoadOptions = { url: `${url}${path}`, duration: seconds, connections, threads, headers };
      return load(options);
    };
    await run('/', 2); // warm-up: JIT and the isolate's module-scope setup
    const page = await run('/', duration);
    await run(STATIC_ASSET, 2);
    const asset = await run(STATIC_ASSET, duration);
    const ratio = page.requestsPerSecond / asset.requestsPerSecond;
    const rss = residentBytes(server.pid);
    return [
      { name: `GET / (iPhone, ${pageBytes} B HTML)`, value: describeLoad(page) },
      { name: `GET ${STATIC_ASSET} (static, ${assetBytes} B)`, value: describeLoad(asset) },
      { name: 'SSR / static requests/s', value: ratio.toFixed(2), budget: { limit: '≥ 0.5', ok: ratio >= 0.5 } },
      { name: 'workerd resident memory after load', value: rss ? `${(rss / 2 ** 20).toFixed(0)} MiB` : 'unknown' },
    ];
  },
};
