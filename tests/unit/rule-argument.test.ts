/**
 * `npm run link -- --short --rule 'when => action'` (scripts/lib/rule-argument.ts, scripts/link.ts) and
 * `--password`; the same syntax one rule per line in the links room's editor (shared/rule-line.ts).
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ruleArgument } from '../../scripts/lib/rule-argument.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';
import { lineOfRule, ruleLines } from '../../shared/rule-line.ts';

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

describe('rules one per line (the links room)', () => {
  it('reads every non-blank line in order, and writes each rule back as its line', () => {
    const text =
      'os == "iOS" => store\n\ntrue => page b\nlang == "zh-CN" => url https://a.example/x\ntrue => deep-link /o';
    const parsed = ruleLines(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.rules).toHaveLength(4);
    expect(parsed.rules.map(lineOfRule).join('\n')).toBe(text.replace('\n\n', '\n'));
  });

  it('names the first line that spells no rule', () => {
    expect(ruleLines('true => store\nos == "iOS"\ntrue => jump')).toEqual({
      ok: false,
      line: 2,
      reason: expect.stringContaining("expected 'condition => action'"),
    });
  });
});

/** Runs `npm run link` with `extra` against a stand-in worker; the bodies it posted and its exit status. */
async function linkAgainstServer(extra: string[]): Promise<{ status: number; bodies: unknown[] }> {
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
  const status = await new Promise<number>((resolve) =>
    execFile(process.execPath, [...args, ...extra], { env: TOOL_ENV }, (error) => resolve(error ? 1 : 0)),
  );
  server.close();
  return { status, bodies };
}

describe('npm run link -- --short --password', () => {
  it('sends the password with the short link', async () => {
    const { status, bodies } = await linkAgainstServer(['--password', 'open sesame']);
    expect(status).toBe(0);
    expect(bodies).toEqual([{ channel: 'c', data: {}, password: 'open sesame' }]);
  });
});

describe('npm run link -- --short --rule', () => {
  it('sends the rules, in order, with the short link', async () => {
    const rules = ['--rule', 'os == "iOS" => store', '--rule', 'true => deep-link /open/x'];
    const { status, bodies } = await linkAgainstServer(rules);
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
