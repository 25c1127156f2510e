/** The SSR page against a static asset, on the same workerd server, in one run. */
import type { BenchSection } from './context.ts';
import { IPHONE_UA } from './context.ts';
import { describeLoad, load } from './load.ts';

export const http: BenchSection = {
  title: 'HTTP on workerd (production build)',
  async run({ url, duration, connections }) {
    const headers = { 'user-agent': IPHONE_UA, 'accept-language': 'en-US,en;q=0.9' };
    await load({ url: `${url}/`, duration: 2, connections, headers }); // warm-up
    const page = await load({ url: `${url}/`, duration, connections, headers });
    const asset = await load({ url: `${url}/logo.png`, duration, connections, headers });
    const ratio = page.requestsPerSecond / asset.requestsPerSecond;
    return [
      { name: 'GET / (iPhone)', value: describeLoad(page) },
      { name: 'GET /logo.png (static asset)', value: describeLoad(asset) },
      { name: 'SSR / static ratio', value: ratio.toFixed(2), budget: { limit: '≥ 0.5', ok: ratio >= 0.5 } },
    ];
  },
};
