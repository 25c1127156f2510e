/**
 * The hostile mix of `npm run bench:lab -- --load` (docs/benchmarks.md, docs/security.md): bad paths, bad queries and
 * pathological agents and headers, as they arrive at the worker. Everything here is valid on the
 * wire (Cloudflare's edge refuses malformed HTTP and URLs over 16 KB before a worker runs); the
 * worker tests send the larger and stranger inputs through `app.request`. A 400 or 404 is a correct
 * answer here; a 5xx or a dropped connection never is.
 */
import type { CycledRequest } from './wrk-scripts.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const WECHAT_ANDROID =
  'Mozilla/5.0 (Linux; Android 13; PHF110 Build/RKQ1.211119.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160117 MMWEBSDK/20231202 MicroMessenger/8.0.46.2540(0x28002E3C) WeChat/arm64 Weixin NetType/5G Language/zh_CN ABI/arm64';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const BAD_PATHS = [
  '/%',
  '/%E0%A4%A',
  '/%00',
  '//evil.com',
  '/%5Cevil.com',
  '/https:/evil.com',
  '/trusted@evil.com',
  '/..%2f..%2fetc/passwd',
  '/landing/%ff',
  `/${'a'.repeat(16_000)}`,
  '/assets/builds/meta/%3Cimg%20src%3Dx%3E.json',
  '/assets/builds/meta/..%2F..%2Fsecret.json',
  '/api/%00',
];

const BAD_QUERIES = [
  '/?d=%',
  `/landing?d=${'A'.repeat(8000)}`,
  '/landing?d=%00%01%02',
  '/landing?d=!!!',
  '/landing?inviter=%3C%2Fscript%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E&channel=%E2%80%A8',
  '/landing?a=%E0%A4%A',
  `/landing?${'x=1&'.repeat(1500)}`,
  '/?redirect=%2F%2Fevil.com&next=https%3A%2Fevil.com',
  '/assets/builds/latest.json?%ff%fe',
];

const BAD_AGENTS = [
  '',
  `Mozilla/5.0 (${'('.repeat(16_000)}`,
  'x'.repeat(16_000),
  'Mozilla/5.0 (iPhone; \u00ff\u00fe CPU iPhone OS 17_0 like Mac OS X)',
  'Mozilla/5.0 \t(iPhone)\t',
  `Mozilla/5.0 (Linux; Android ${'Android ('.repeat(1700)}`,
  GOOGLEBOT,
];

/** Requests for the hostile mix: every bad path and query with a real agent, every bad agent on `/`, bad headers. */
export function hostileRequests(): CycledRequest[] {
  return [
    ...BAD_PATHS.map((path) => ({ path, headers: { 'User-Agent': IPHONE } })),
    ...BAD_QUERIES.map((path) => ({ path, headers: { 'User-Agent': WECHAT_ANDROID } })),
    ...BAD_AGENTS.map((agent) => ({ path: '/', headers: { 'User-Agent': agent } })),
    ...BAD_PATHS.slice(0, 4).map((path) => ({ path, headers: { 'User-Agent': GOOGLEBOT } })),
    {
      path: '/',
      headers: {
        'User-Agent': IPHONE,
        'Accept-Language': 'zh-CN;q=0.9,'.repeat(680),
        Cookie: `user_id="><script>alert(1)</script>; ${'a=b; '.repeat(1200)}`,
        Referer: `javascript:alert(1)//${'x'.repeat(6000)}`,
      },
    },
    { path: '/landing', headers: { 'User-Agent': IPHONE, 'Sec-CH-UA-Platform': `"${'A'.repeat(4000)}"` } },
    { method: 'POST', path: '/', headers: { 'User-Agent': IPHONE } },
    { method: 'DELETE', path: '/api/device', headers: { 'User-Agent': IPHONE } },
  ];
}
