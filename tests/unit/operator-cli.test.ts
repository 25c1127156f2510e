import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { adminTarget } from '../../scripts/lib/admin-api.ts';
import { sinceDay, statsTable } from '../../scripts/lib/stats-table.ts';
import { statsQuery } from '../../scripts/stats.ts';
import type { StatsRow } from '../../worker/funnel/stats-query.ts';

const run = promisify(execFile);

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  accept: string | undefined;
  body: string;
}

let server: Server | undefined;

/** A stand-in worker answering every request with `status` and `body`, remembering what it was asked. */
async function stubWorker(status: number, body: unknown): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer(async (req: IncomingMessage, res) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      accept: req.headers.accept,
      body: text,
    });
    res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/csv' : 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, seen };
}

function cli(script: string, args: string[]) {
  const env = { ...process.env, ADMIN_TOKEN: '', LANDER_URL: '' };
  return run(process.execPath, [script, ...args], { encoding: 'utf8', env }).catch(
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

const row = (key: string, views: number, events: Record<string, number> = {}): StatsRow => ({
  key,
  ...{ views, visitors: 1, taps: 0, installs: 0, opens: 0 },
  ...{ events, values: {}, byPage: {}, byAction: {}, byMethod: {} },
  ...{ attributed: 0, organic: 0, byUnmatched: {}, rates: { tap: null, install: null, events: {} } },
  ...{ flagged: { installs: 0, byRule: {}, excluded: 0 }, countedInstalls: 0 },
});

describe('npm run stats', () => {
  it('asks the worker for the range and grouping, with the token, and prints a table', async () => {
    const { base, seen } = await stubWorker(200, {
      from: '2026-11-19',
      to: '2026-11-25',
      by: 'channel',
      rows: [row('spring', 12)],
    });
    const result = await cli('scripts/stats.ts', [
      '--since',
      '7d',
      '--to',
      '2026-11-25',
      '--by',
      'channel',
      '--base',
      base,
    ]);
    expect(seen[0]).toMatchObject({
      url: '/api/stats?by=channel&to=2026-11-25&from=2026-11-19',
      authorization: 'Bearer lander-dev-admin',
    });
    expect(result.stdout).toContain('spring      12');
  });

  it('passes --inviter on as the stats API’s filter', async () => {
    const { base, seen } = await stubWorker(200, { from: '2026-11-25', to: '2026-11-25', by: 'os', rows: [] });
    await cli('scripts/stats.ts', ['--by', 'os', '--inviter', 'Wen Li', '--base', base]);
    expect(new URL(`http://x${seen[0]?.url ?? ''}`).searchParams.get('inviter')).toBe('Wen Li');
  });

  it('prints the API’s CSV with --csv', async () => {
    const { base, seen } = await stubWorker(200, 'key,views\r\nspring,12\r\n');
    const result = await cli('scripts/stats.ts', ['--csv', '--base', base]);
    expect(seen[0]?.accept).toBe('text/csv');
    expect(result.stdout).toBe('key,views\r\nspring,12\r\n');
  });

  it('prints the API’s refusal and exits 2', async () => {
    const { base } = await stubWorker(400, { error: 'to: must not be after 2026-11-27' });
    const result = await cli('scripts/stats.ts', ['--base', base, '--from', '2026-11-02', '--to', '2026-11-03']);
    expect(result).toMatchObject({ code: 2, stderr: 'npm run stats: 400: to: must not be after 2026-11-27\n' });
  });

  it.each([
    [['--since', '9999d'], '--since: a number of days from 1 to 366'],
    [['--since', '400d'], '--since: a number of days from 1 to 366'],
    [['--from', '9999-12-31'], '--from: must not be after'],
    [['--to', '9999-12-31', '--since', '7d'], '--to: must not be after'],
    [['--from', '1999-12-31', '--to', '2000-01-02'], '--from: must not be before 2000-01-01'],
    [['--to', 'garbage', '--since', '7d'], '--to: must be a date, YYYY-MM-DD'],
    [['--from', '２０２６-１１-０１'], '--from: must be a date, YYYY-MM-DD'],
    [['--from', '2026-11-02', '--to', '2026-11-01'], '--from: must not be after to'],
    [['--from', '2024-01-01', '--to', '2026-01-01'], '--from: at most 366 days'],
    [['--by', 'visitor'], '--by: one of day, channel'],
    [['--channel', 'x'.repeat(200)], '--channel: at most 128 characters'],
    [['--frmo', '2026-11-01'], "Unknown option '--frmo'; usage: npm run stats"],
    [['--since'], "Option '--since <value>' argument missing; usage: npm run stats"],
    // A value starting with - is the option's value (scripts/lib/cli-args.ts), refused as the date it is not.
    [['--from', '-1'], '--from: must be a date, YYYY-MM-DD'],
    [['7d'], "Unexpected argument '7d'; usage: npm run stats"],
    [['--csv=yes'], "Option '--csv' does not take an argument; usage: npm run stats"],
  ])('refuses %j in one line, exit 2, before calling the worker', async (args, message) => {
    const { base, seen } = await stubWorker(200, { from: '', to: '', by: 'day', rows: [] });
    const result = await cli('scripts/stats.ts', ['--base', base, ...args]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^npm run stats: [^\n]+\n$/);
    expect(result.stderr).toContain(message);
    expect(seen).toEqual([]);
  });

  it('answers any flags with figures or one line and exit 2, never a stack trace', async () => {
    const { base } = await stubWorker(200, { from: '2026-11-19', to: '2026-11-25', by: 'day', rows: [] });
    const flag = fc.constantFrom(
      '--since',
      '--from',
      '--to',
      '--by',
      '--channel',
      '--inviter',
      '--link',
      '--until',
      '-x',
    );
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom('7d', '0d', '366d', '999d', '9999-12-31', '0000-01-01', '2026-11-01', 'channel', '-1', '1e309'),
      fc.integer().map(String),
    );
    const args = fc
      .array(fc.tuple(flag, text), { maxLength: 3 })
      // A NUL cannot be passed on a command line at all.
      .map((pairs) => pairs.flat().map((arg) => arg.replaceAll('\0', '')));
    await fc.assert(
      fc.asyncProperty(args, async (list) => {
        const result = await cli('scripts/stats.ts', [...list, '--base', base]);
        // Exit 0: the stub's figures were printed.
        if (!('code' in result)) return;
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toMatch(/^npm run stats: [^\n]+\n$/);
      }),
      { numRuns: 12 },
    );
  });

  it('needs the production token for production', async () => {
    const result = await cli('scripts/stats.ts', ['--env', 'production', '--base', 'https://get.example.com']);
    expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining('ADMIN_TOKEN') });
  });
});

describe('npm run link -- --short', () => {
  it('asks the worker to mint and store the link, and prints its short, long and QR URLs', async () => {
    const answer = { shortUrl: 'http://x/s/spring', url: 'http://x/landing?d=T', qr: 'http://x/s/spring.svg' };
    const { base, seen } = await stubWorker(201, answer);
    const result = await cli('scripts/link.ts', [
      ...[
        '--short',
        '--channel',
        'spring',
        '--inviter',
        'Ann',
        '--param',
        'promo=x1',
        '--slug',
        'spring',
        '--base',
        base,
      ],
    ]);
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.url).toBe('/api/links');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({
      channel: 'spring',
      inviter: 'Ann',
      data: { promo: 'x1' },
      slug: 'spring',
    });
    expect(result.stdout).toBe('http://x/s/spring\nhttp://x/landing?d=T\nhttp://x/s/spring.svg\n');
  });

  it('prints a taken slug’s refusal and exits 2', async () => {
    const { base } = await stubWorker(409, { error: 'the slug "spring" is taken' });
    const result = await cli('scripts/link.ts', ['--short', '--channel', 'x', '--slug', 'spring', '--base', base]);
    expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining('409: the slug "spring" is taken') });
  });

  it('refuses plain parameters, which a short link cannot carry', async () => {
    const result = await cli('scripts/link.ts', ['--short', '--channel', 'x', '--plain', 'utm_source=a']);
    expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining('--param rather than --plain') });
  });
});

describe('where the operator CLIs call', () => {
  it('is the local dev server by default, with the development token', () => {
    expect(adminTarget({}, { PORT: '9000' })).toEqual({
      ok: true,
      target: { base: 'http://localhost:9000', token: 'lander-dev-admin' },
    });
  });

  it('never sends a real token in the clear but to this machine', () => {
    for (const base of ['http://get.example.com', 'http://192.168.1.20:8787', 'http://lander.test.']) {
      expect(adminTarget({ base }, { ADMIN_TOKEN: 'secret' }), base).toMatchObject({
        ok: false,
        reason: expect.stringContaining('plain http'),
      });
    }
    expect(adminTarget({ base: 'http://get.example.com', baseFlag: '--url' }, { ADMIN_TOKEN: 's' })).toMatchObject({
      reason: expect.stringMatching(/^--url /),
    });
    for (const base of [
      'http://localhost:8787',
      'http://127.0.0.1:8787',
      'http://[::1]:8787',
      'https://get.example.com',
    ]) {
      expect(adminTarget({ base }, { ADMIN_TOKEN: 'secret' }), base).toMatchObject({ ok: true });
    }
    // The development token is no secret: a phone on the local network reaches npm start over http.
    expect(adminTarget({ base: 'http://192.168.1.20:8787' }, {})).toMatchObject({ ok: true });
  });

  it('is LANDER_URL for an environment', () => {
    expect(adminTarget({ env: 'production' }, { LANDER_URL: 'https://get.example.com/x', ADMIN_TOKEN: 't' })).toEqual({
      ok: true,
      target: { base: 'https://get.example.com', token: 't' },
    });
  });

  it('must be named for an environment', () => {
    expect(adminTarget({ env: 'development' }, {})).toMatchObject({
      ok: false,
      reason: expect.stringContaining('LANDER_URL'),
    });
  });

  it('is never asked for with both --local and --env', () => {
    expect(adminTarget({ env: 'production', local: true }, {})).toMatchObject({ ok: false });
  });
});

describe('the stats table', () => {
  it('aligns numbers right and names empty keys and app events', () => {
    expect(statsTable('channel', [row('spring', 12, { register: 2 }), row('', 3)])).toBe(
      [
        'channel  views  visitors  taps  tap%  attributed  install%  organic  installs  opens  flagged  counted  events',
        'spring      12         1     0     –           0         –        0         0      0        0        0  register=2 (–)',
        '(none)       3         1     0     –           0         –        0         0      0        0        0',
      ].join('\n'),
    );
  });

  it('puts each rate beside its count, attributed and organic installs apart', () => {
    const spring: StatsRow = {
      ...row('spring', 8, { register: 3 }),
      ...{ taps: 4, installs: 6, attributed: 2, organic: 4, byUnmatched: { none: 4 } },
      rates: { tap: 0.5, install: 0.5, events: { register: 0.5 } },
    };
    const [, line] = statsTable('channel', [spring]).split('\n');
    expect(line?.split(/ {2,}/)).toEqual([
      'spring',
      '8',
      '1',
      '4',
      '50.0%',
      '2',
      '50.0%',
      '4',
      '6',
      '0',
      '0',
      '0',
      'register=3 (50.0%)',
    ]);
  });

  it('counts --since days up to and including the last, 1 to 366 of them', () => {
    expect(sinceDay('7d', '2026-11-25')).toBe('2026-11-19');
    expect(sinceDay('1d', '2026-11-25')).toBe('2026-11-25');
    expect(sinceDay('366d', '2026-11-25')).toBe('2025-11-25');
    expect(sinceDay('0d', '2026-11-25')).toBeUndefined();
    expect(sinceDay('367d', '2026-11-25')).toBeUndefined();
    expect(sinceDay('week', '2026-11-25')).toBeUndefined();
    expect(sinceDay('7d', 'garbage')).toBeUndefined();
  });

  it('builds the query the API would take, or says which flag to change, for any flags', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(String(statsQuery({ since: '7d', by: 'os' }, now))).toBe('by=os&from=2026-11-19&to=2026-11-25');
    const flags = fc.record(
      {
        since: fc.oneof(
          fc.string(),
          fc.nat(1000).map((days) => `${days}d`),
        ),
        from: fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
        ),
        to: fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
        ),
        by: fc.oneof(fc.string(), fc.constantFrom('day', 'channel', 'os')),
        channel: fc.string({ maxLength: 200 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(flags, (given) => {
        const query = statsQuery(given, now);
        if ('error' in query) expect(query.error).toMatch(/^--[a-z]+[: ]/);
        else expect(query.get('by')).toBeTruthy();
      }),
      { numRuns: 2_000 },
    );
  });
});
