/**
 * `npm run import`'s readers and rules (docs/operators.md#bring-your-links): each sample export of
 * tests/fixtures/import/ (built from its format's documentation) read to its links, RFC 4180 CSV,
 * Lander's slug and target rules with their reasons, the format found from the file's shape, and the
 * command refusing a file that is not what it claims (exit 2, the reason, no call to the worker).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { carryAll, carryLink, slugRefusal, targetRefusal } from '../../scripts/lib/link-import/carry.ts';
import { parseCsv } from '../../scripts/lib/link-import/csv.ts';
import { columnName, type ExportedLink } from '../../scripts/lib/link-import/formats.ts';
import { readExport } from '../../scripts/lib/link-import/read-export.ts';
import { MAX_FILE_BYTES } from '../../scripts/lib/link-import/read-file.ts';
import { differences, reportLines } from '../../scripts/lib/link-import/run.ts';
import type { LinkView } from '../../shared/admin-contract.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'import');
const sample = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const NOW = Date.parse('2026-11-29T00:00:00Z');

/** The sample's links as slug → target. */
function targets(name: string): Record<string, string> {
  const read = readExport(sample(name));
  if (!read.ok) throw new Error(read.reason);
  return Object.fromEntries(read.links.map((link) => [link.slug, link.target]));
}

describe('each sample export', () => {
  it.each([
    ['firebase.csv', 'firebase'],
    ['bitly.csv', 'bitly'],
    ['dub.json', 'dub'],
    ['dub.csv', 'dub'],
    ['shlink.json', 'shlink'],
    ['shlink.csv', 'shlink'],
    ['sink.json', 'sink'],
  ])('%s is read as %s, alone among the formats', (name, format) => {
    expect(readExport(sample(name))).toMatchObject({ ok: true, format });
    expect(readExport(sample(name), format as never)).toMatchObject({ ok: true, format });
  });

  it("Firebase: the short link's path, the deep link, the UTM columns", () => {
    expect(targets('firebase.csv')).toEqual({
      spring: 'https://shop.example.com/p/42?promo=spring',
      'app-home': 'https://shop.example.com/',
      Promo1: 'https://shop.example.com/p/7',
      legacy: 'http://shop.example.com/legacy',
    });
    const read = readExport(sample('firebase.csv'));
    expect(read.ok && read.links[0]?.params).toEqual({
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring-sale',
    });
  });

  it('Bitly, Dub, Shlink and Sink: slug, target, tags and expiry as each writes them', () => {
    // A custom back-half wins over the generated link.
    expect(targets('bitly.csv')).toMatchObject({ p11: 'https://shop.example.com/p/11' });
    expect(targets('bitly.csv')).not.toHaveProperty('4QxYz7');
    expect(targets('bitly.csv')).toMatchObject({
      'summer-deal': expect.stringContaining('/summer?'),
      '3AbCdEf': expect.any(String),
    });
    expect(targets('dub.csv')).toEqual({
      autumn: 'https://shop.example.com/autumn?utm_source=blog',
      Autumn2: 'https://shop.example.com/autumn2',
    });
    const dub = readExport(sample('dub.json'));
    expect(dub.ok && dub.links.map((l) => [l.slug, l.tags, l.blocked, l.expiresAt])).toEqual([
      ['launch', ['launch', 'q3'], undefined, undefined],
      ['secret', [], 'it is password-protected: Lander links have no passwords', undefined],
      ['winter', [], undefined, Date.parse('2020-03-01T00:00:00Z')],
    ]);
    const shlink = readExport(sample('shlink.csv'));
    expect(shlink.ok && shlink.links[0]?.tags).toEqual(['docs', 'guide']);
    const shlinkApi = readExport(sample('shlink.json'));
    expect(shlinkApi.ok && shlinkApi.links[0]?.expiresAt).toBe(Date.parse('2099-12-31T00:00:00Z'));
    const sink = readExport(sample('sink.json'));
    // Unix seconds in Sink's export.
    expect(sink.ok && sink.links[1]?.expiresAt).toBe(4_102_444_800_000);
  });
});

describe('a file that is not what it claims', () => {
  it.each([
    ['bad/not-an-export.csv', /none of the known exports/],
    ['bad/ambiguous.csv', /could be firebase or dub: say which with --from/],
    ['bad/unclosed-quote.csv', /not valid CSV: line 2: a quoted field is never closed/],
    ['bad/broken-json.txt', /not valid JSON/],
  ])('%s is refused: %s', (name, reason) => {
    const read = readExport(sample(name));
    expect(read.ok).toBe(false);
    expect(!read.ok && read.reason).toMatch(reason);
  });

  it('a format named with --from that the file is not', () => {
    expect(readExport(sample('dub.json'), 'bitly')).toEqual({
      ok: false,
      reason: 'not a Bitly CSV: a Bitly CSV has a "long_url" column and a "link" (or "id") column',
    });
    expect(readExport(sample('firebase.csv'), 'sink')).toMatchObject({ ok: false, reason: /^not Sink's export/ });
    expect(readExport(sample('bad/ambiguous.csv'), 'firebase')).toMatchObject({ ok: true });
  });
});

describe('CSV', () => {
  it('reads quotes, doubled quotes, line breaks in quotes, CRLF and a byte-order mark', () => {
    const csv = parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n"two\nlines",z\r\n');
    expect(csv).toEqual({
      ok: true,
      table: {
        header: ['a', 'b'],
        rows: [
          { line: 2, cells: ['x, y', 'say "hi"'] },
          { line: 3, cells: ['two\nlines', 'z'] },
        ],
      },
    });
  });

  it('refuses a row with another number of fields, naming its line', () => {
    expect(parseCsv('a,b\n1,2\n3\n')).toEqual({ ok: false, reason: 'line 3: 1 fields where the header has 2' });
  });

  it('names columns as the exports write them', () => {
    expect(columnName('Deep link (link)')).toBe('link');
    expect(columnName('Short link')).toBe('short_link');
    expect(columnName('Enable forced redirect? (efr)')).toBe('efr');
    expect(columnName('longUrl')).toBe('longurl');
  });
});

describe("Lander's rules", () => {
  it('keeps a slug or says why not, never renaming it', () => {
    expect(slugRefusal('spring-2024')).toBeUndefined();
    expect(slugRefusal('Promo1')).toMatch(/capital letters.*never renamed/);
    expect(slugRefusal('ab')).toBe('the slug is 2 characters: Lander slugs are 3 to 48');
    expect(slugRefusal('a/b/c')).toMatch(/has a path/);
    expect(slugRefusal('café')).toMatch(/characters Lander slugs do not take/);
    expect(slugRefusal('')).toBe('the export names no slug');
  });

  it('carries an https target on an allowed host, at most 256 characters', () => {
    expect(targetRefusal('https://shop.example.com/x', [])).toBeUndefined();
    expect(targetRefusal('http://shop.example.com/', [])).toMatch(/http: and Lander carries only https/);
    expect(targetRefusal('javascript:alert(1)', [])).toMatch(/javascript:/);
    expect(targetRefusal('https://u:p@shop.example.com/', [])).toMatch(/user name or password/);
    expect(targetRefusal('https://evil.example.net/', ['shop.example.com'])).toMatch(
      /evil\.example\.net is not one --allow-host/,
    );
    expect(targetRefusal(`https://shop.example.com/${'a'.repeat(300)}`, [])).toMatch(/at most 256/);
    expect(targetRefusal('not a url', [])).toBe('the target is not a URL');
  });

  it('maps the parameters onto campaign fields: link, utm_*, channel from utm_source, tags, expiry', () => {
    const link: ExportedLink = {
      at: 'line 2',
      slug: 'spring',
      target: 'https://shop.example.com/?utm_source=ignored',
      params: { utm_source: 'newsletter', utm_campaign: 'spring' },
      tags: ['a', 'b'],
      expiresAt: Date.parse('2030-01-01T00:00:00Z'),
    };
    expect(carryLink(link, { allowHosts: [], now: NOW })).toEqual({
      ok: true,
      at: 'line 2',
      body: {
        slug: 'spring',
        channel: 'newsletter',
        data: { link: link.target, utm_source: 'newsletter', utm_campaign: 'spring', tags: 'a,b' },
        expiresAt: '2030-01-01T00:00:00.000Z',
      },
    });
    // Without UTM fields of its own, the target's are read.
    const bare = carryLink({ ...link, params: {} }, { allowHosts: [], now: NOW });
    expect(bare.ok && bare.body.channel).toBe('ignored');
    expect(carryLink({ ...link, expiresAt: NOW - 1 }, { allowHosts: [], now: NOW })).toMatchObject({
      ok: false,
      reason: /^it expired on /,
    });
    expect(carryLink({ ...link, params: { utm_term: 'x'.repeat(300) } }, { allowHosts: [], now: NOW })).toMatchObject({
      ok: false,
      reason: /campaign fields break the token's rules/,
    });
  });

  it('refuses a slug the file names twice, saying where it was first', () => {
    const link: ExportedLink = { at: 'line 2', slug: 'dup', target: 'https://a.example.com/', params: {}, tags: [] };
    const carried = carryAll([link, { ...link, at: 'line 3' }], { allowHosts: [], now: NOW });
    expect(carried[1]).toEqual({
      ok: false,
      at: 'line 3',
      slug: 'dup',
      reason: 'the slug is also at line 2 in this file',
    });
  });

  it('compares a stored link field by field, and reports what it did', () => {
    const stored = { data: { link: 'https://a.example.com/', channel: 'x' }, expiresAt: null } as unknown as LinkView;
    expect(differences(stored, { slug: 's', channel: 'x', data: { link: 'https://a.example.com/' } })).toEqual([]);
    expect(
      differences(stored, { slug: 's', data: { link: 'https://b.example.com/' }, expiresAt: '2030-01-01T00:00:00Z' }),
    ).toEqual(['channel', 'link', 'expiresAt']);
    expect(
      reportLines([
        { kind: 'created', at: 'line 2', slug: 'a' },
        { kind: 'not carried', at: 'line 3', slug: 'B', reason: 'capital letters' },
      ]),
    ).toEqual(['not carried: line 3 B — capital letters', '2 links: 1 created, 1 not carried']);
  });
});

const run = promisify(execFile);
let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A stand-in worker that counts the calls it gets (none is the point) and answers 404. */
async function countingWorker(): Promise<{ base: string; calls: string[] }> {
  const calls: string[] = [];
  server = createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"slug: no such link"}');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

function cli(args: string[]) {
  const env = { ...process.env, ADMIN_TOKEN: '', LANDER_URL: '' };
  return run(process.execPath, ['scripts/import.ts', ...args], { encoding: 'utf8', env }).then(
    (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('npm run import', () => {
  it.each([
    [
      ['tests/fixtures/import/bad/ambiguous.csv'],
      /could be firebase or dub: say which with --from; nothing was stored/,
    ],
    [['tests/fixtures/import/bad/not-an-export.csv'], /none of the known exports/],
    [['--from', 'bitly', 'tests/fixtures/import/dub.json'], /not a Bitly CSV/],
    [['--from', 'rebrandly', 'tests/fixtures/import/dub.json'], /unknown format "rebrandly"/],
    [['tests/fixtures/import/missing.csv'], /cannot read/],
    [['--frmo', 'x'], /Unknown option '--frmo'/],
    [['tests/fixtures/import/sink.json', 'tests/fixtures/import/dub.json'], /give one export FILE/],
  ])('%j: exit 2 with the reason, no call to the worker', async (args, reason) => {
    const worker = await countingWorker();
    const result = await cli([...args, '--base', worker.base]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^npm run import: /);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(worker.calls).toEqual([]);
  });

  it('a dry run asks the worker and writes nothing', async () => {
    const worker = await countingWorker();
    const result = await cli(['tests/fixtures/import/sink.json', '--dry-run', '--base', worker.base]);
    expect(result.code).toBe(0);
    expect(worker.calls).toEqual(['GET /api/links/blog', 'GET /api/links/far-future']);
    expect(result.stdout).toContain('would create: links[0] blog');
    expect(result.stdout).toContain('not carried: links[2] Team — the slug has capital letters');
    expect(result.stdout).toContain('3 links: 2 would create, 1 not carried');
  });

  it('answers --help', async () => {
    const result = await cli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('usage: npm run import -- [--from firebase|bitly|dub|shlink|sink] FILE');
  });
});

describe('npm run import refuses a hostile file whole (docs/security.md#attacks-and-what-holds-them)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lander-import-'));
  const file = (name: string, content: string | Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const row = (i: number) => `https://example.page.link/s${i},https://shop.example.com/${i}\n`;
  const header = 'Short link,Deep link (link)\n';

  it.each([
    [
      'larger than 32 MiB',
      () => file('big.csv', header + 'x'.repeat(MAX_FILE_BYTES)),
      /is 32\.0 MiB; an import reads at most 32\.0 MiB/,
    ],
    [
      'a line of a megabyte',
      () =>
        file('long.csv', `${header}https://example.page.link/abc,https://shop.example.com/${'a'.repeat(1_000_000)}\n`),
      /line 2: a row longer than 65536 characters/,
    ],
    [
      'a header of 100,000 columns',
      () => file('wide.csv', `${Array.from({ length: 100_000 }, (_, i) => `c${i}`).join(',')}\n`),
      /line 1: a row longer than/,
    ],
    [
      'a quote never closed, megabytes on',
      () => file('quote.csv', `${header}"${'a,'.repeat(500_000)}`),
      /line 2: a row longer than/,
    ],
    [
      'more than 50,000 links',
      () => file('many.csv', header + Array.from({ length: 50_001 }, (_, i) => row(i)).join('')),
      /it has 50001 links; an import carries at most 50000/,
    ],
    [
      'a PNG named .csv',
      () => file('image.csv', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')),
      /a NUL byte \(at byte 8\): a binary file/,
    ],
    [
      'UTF-16 text',
      () => file('utf16.csv', Buffer.from(`\ufeff${header}`, 'utf16le')),
      /UTF-16 text: save the export as UTF-8/,
    ],
    [
      'bytes that are not UTF-8',
      () => file('latin1.csv', Buffer.concat([Buffer.from(header), Buffer.from([0xe9, 0x2c, 0x0a])])),
      /not UTF-8 text/,
    ],
    [
      'JSON nested 200,000 deep',
      () => file('deep.json', `${'['.repeat(200_000)}${']'.repeat(200_000)}`),
      /none of the known exports/,
    ],
  ])('%s: exit 2 with the reason, nothing stored', async (_, make, reason) => {
    const worker = await countingWorker();
    const result = await cli([make(), '--base', worker.base]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).toMatch(/nothing was stored/);
    expect(worker.calls).toEqual([]);
  });

  it('prints no escape sequence a file hides in a slug or in what JSON quotes of it', async () => {
    const hostile = '\u001b[2J\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007';
    const sinkFile = file(
      'esc.json',
      JSON.stringify({ version: '1', exportedAt: 'x', links: [{ slug: hostile, url: 'https://a.example.com/' }] }),
    );
    const worker = await countingWorker();
    const listed = await cli([sinkFile, '--dry-run', '--base', worker.base]);
    expect(listed.stdout).toContain('not carried: links[0] \\u001b[2J\\u001b]8;;https://evil.example/\\u0007click');
    expect(listed.stdout).not.toContain('\u001b');
    expect(listed.stdout).not.toContain('\u0007');
    const broken = await cli([file('broken.json', `{"links": "\u001b[2J`), '--base', worker.base]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/not valid JSON/);
    expect(broken.stderr).not.toContain('\u001b');
  });
});
