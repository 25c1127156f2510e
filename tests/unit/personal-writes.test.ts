/**
 * Nothing personal is written to KV or to the logs (docs/privacy.md#data-map): the static reading of
 * `worker/` (scripts/lib/personal-writes.ts) finds no such write, and finds every planted one — a raw
 * address, agent, visitor, install or user id, in any argument, field or template — while a keyed
 * hash of one, a network bucket or a length passes.
 */
import { describe, expect, it } from 'vitest';
import { formatWrites, personalWritesIn, personalWritesUnder } from '../../scripts/lib/personal-writes.ts';
import { ROOT } from '../../scripts/lib/run.ts';

const sinksOf = (text: string) => personalWritesIn('planted.ts', text).map((write) => `${write.sink} ${write.value}`);

describe('personal data in KV and logs', () => {
  it('is written nowhere in worker/', () => {
    const writes = personalWritesUnder(ROOT, 'worker');
    expect(formatWrites(writes)).toBe('');
  });

  it.each([
    ["console.log('visit', ip);", 'console.log ip'],
    ['console.error(`Failed for ${visit.address}`);', 'console.error visit.address'],
    ["console.log({ event: 'trace', userId, minted: true });", 'console.log userId'],
    ['console.warn(body.installId.slice(0, 8));', 'console.warn body.installId'],
    ["console.info(c.req.header('cf-connecting-ip'));", "console.info c.req.header('cf-connecting-ip')"],
    ["console.log('agent', request.headers.get('User-Agent'));", "console.log request.headers.get('User-Agent')"],
    ['await c.env.KV.put(`seen:${visitorId}`, "1");', 'KV.put visitorId'],
    ['await env.KV.put("last", JSON.stringify({ agent: userAgent }));', 'KV.put userAgent'],
    ["await kv.put('x', '1', { metadata: { fingerprint } });", 'KV.put fingerprint'],
  ])('finds a planted write: %s', (text, found) => {
    expect(sinksOf(text)).toEqual([found]);
  });

  it.each([
    "console.log({ event: 'trace', visitor: await keyedHash(salt, userId) });",
    'console.log(networkOf(ip)?.prefix);',
    "console.error('agent too long', userAgent.length);",
    "await env.KV.put('config', text, { metadata: { revision } });",
    'await env.EXPORTS.put(key, ip);',
    "console.log('Exported', day, JSON.stringify(counts));",
  ])('lets pass what names no person: %s', (text) => {
    expect(sinksOf(text)).toEqual([]);
  });

  it('names the file and line of each write', () => {
    const [write] = personalWritesIn('worker/x.ts', "const a = 1;\n\nconsole.log('ip', ip);");
    expect(write).toEqual({ file: 'worker/x.ts', line: 3, sink: 'console.log', value: 'ip' });
  });
});
