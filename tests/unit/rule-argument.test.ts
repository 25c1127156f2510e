/** `npm run link -- --short --rule 'when => action'` (scripts/lib/rule-argument.ts, scripts/link.ts). */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ruleArgument } from '../../scripts/lib/rule-argument.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';

describe('a rule on the command line', () => {
  it.each([
    ['os == "iOS" => store', { when: 'os == "iOS"', action: 'store' }],
    ['true=>page b', { when: 'true', action: 'page', variant: 'b' }],
    ['country == "CN" => page', { when: 'country == "CN"', action: 'page' }],
    [
      'has(query.src) && query.src == "a=>b" => url https://shop.example.com/x?y=1',
      { when: 'has(query.src) && query.src == "a=>b"', action: 'url', url: 'https://shop.example.com/x?y=1' },
    ],
    [
      'device == "tablet" => deep-link /open/catalogue',
      { when: 'device == "tablet"', action: 'deep-link', path: '/open/catalogue' },
    ],
  ])('reads %j', (text, rule) => {
    expect(ruleArgument(text)).toEqual({ ok: true, rule });
  });

  it.each([
    ['os == "iOS"', "expected 'condition => action'"],
    ['=> store', "expected 'condition => action'"],
    ['true => jump', 'the action is store, page'],
    ['true => url', 'url needs its https URL'],
    ['true => deep-link', 'deep-link needs its /path'],
    ['true => store now', 'store takes no argument'],
    ['true => page a b', 'one argument after page'],
  ])('refuses %j', (text, reason) => {
    const parsed = ruleArgument(text);
    expect(parsed.ok ? '' : parsed.reason).toContain(reason);
  });
});

describe('npm run link -- --short --rule', () => {
  it('sends the rules, in order, with the short link', async () => {
    const bodies: unknown[] = [];
    const server: Server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => {
        text += chunk;
      });
      req.on('end', () => {
        bodies.push(JSON.parse(text));
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ shortUrl: 's', url: 'u', qr: 'q' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const args = ['scripts/link.ts', '--short', '--channel', 'c', '--base', base];
    const rules = ['--rule', 'os == "iOS" => store', '--rule', 'true => deep-link /open/x'];
    const status = await new Promise<number>((resolve) =>
      execFile(process.execPath, [...args, ...rules], { env: TOOL_ENV }, (error) => resolve(error ? 1 : 0)),
    );
    server.close();
    expect(status).toBe(0);
    expect(bodies).toEqual([
      {
        channel: 'c',
        data: {},
        rules: [
          { when: 'os == "iOS"', action: 'store' },
          { when: 'true', action: 'deep-link', path: '/open/x' },
        ],
      },
    ]);
  });
});
