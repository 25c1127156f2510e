/**
 * Every operator command answers `--help` and `-h` (usage, flags, an example; exit 0) and refuses an
 * unknown flag or an unreachable worker in one line, exit 2, never a stack trace (docs/operators.md#clis).
 */
import { spawn } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultRange } from '../../client/app/admin/range.ts';
import { firstDay } from '../../scripts/export.ts';
import { adminTarget, localOrigin, reachableHost } from '../../scripts/lib/admin-api.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';
import { startBanner } from '../../scripts/lib/start-banner.ts';
import { sinceDay } from '../../scripts/lib/stats-table.ts';
import { daysIn } from '../../shared/day-range.ts';
import { utcDay } from '../../shared/time-zone.ts';
import { qrTerminal } from '../../worker/lib/qr-code.ts';
import { DEV_ADMIN_TOKEN } from '../../worker/settings.ts';

const COMMANDS = {
  link: 'scripts/link.ts',
  stats: 'scripts/stats.ts',
  export: 'scripts/export.ts',
  'audit:verify': 'scripts/audit-verify.ts',
  import: 'scripts/import.ts',
  'config:push': 'scripts/config-push.ts',
  apps: 'scripts/apps.ts',
  'try-install': 'scripts/try-install.ts',
  'apk:reserve': 'scripts/apk-reserve.ts',
  'apk:upload': 'scripts/apk-upload.ts',
  deploy: 'scripts/deploy.ts',
  'sdk:js': 'scripts/sdk-js.ts',
  'sdk:android': 'scripts/sdk-android.ts',
};

/** Runs a command as `npm run` would, asynchronously so the commands run side by side. */
function run(script: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...TOOL_ENV, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const STACK = /\n\s+at |Error:/;

describe('every command', () => {
  it.each(Object.entries(COMMANDS))(
    '%s answers --help and -h with usage, flags and an example, exit 0',
    async (name, script) => {
      for (const flag of ['--help', '-h']) {
        const result = await run(script, [flag]);
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        expect(result.stdout).toContain(`usage: npm run ${name}`);
        expect(result.stdout).toContain('Flags:');
        expect(result.stdout).toMatch(new RegExp(`Example:\\n  (\\w+=\\S+ )?npm run ${name}`));
      }
    },
    60_000,
  );

  it.each(Object.entries(COMMANDS))(
    '%s refuses an unknown flag in one line, exit 2',
    async (name, script) => {
      const result = await run(script, ['--frmo', 'x']);
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(new RegExp(`^npm run ${name}: Unknown option '--frmo'`));
      expect(result.stderr).not.toMatch(STACK);
    },
    60_000,
  );

  it('names the URL it could not reach and how to start the server, in one line, exit 2', async () => {
    // A port nothing listens on: 1 is reserved and refused at once.
    const result = await run('scripts/stats.ts', ['--since', '7d'], { PORT: '1', LANDER_URL: '' });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('cannot reach http://localhost:1/api/stats');
    expect(result.stderr).toContain('npm start');
    expect(result.stderr).not.toMatch(STACK);
  }, 30_000);

  it('config:push with neither --local nor --env says how to choose, writing nothing', async () => {
    const result = await run('scripts/config-push.ts', ['worker/config/demo.json']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^npm run config:push: say where to write .*--local.*--env development\|production/);
  }, 30_000);
});

describe('where the commands find the worker', () => {
  it('honours PORT and LANDER_URL, with one local origin for all', async () => {
    expect(localOrigin({})).toBe('http://localhost:8787');
    expect(localOrigin({ PORT: '8861' })).toBe('http://localhost:8861');
    expect(adminTarget({}, { PORT: '8861' })).toMatchObject({ target: { base: 'http://localhost:8861' } });
    expect(adminTarget({}, { PORT: '8861', LANDER_URL: 'https://get.example.com/' })).toMatchObject({
      target: { base: 'https://get.example.com' },
    });
    expect(adminTarget({ local: true }, { PORT: '8861', LANDER_URL: 'https://get.example.com' })).toMatchObject({
      target: { base: 'http://localhost:8861' },
    });
    const link = await run('scripts/link.ts', ['--channel', 'c', '--inviter', 'i'], { PORT: '8861', LANDER_URL: '' });
    expect(link.stdout).toMatch(/^http:\/\/localhost:8861\/landing\?d=/);
    const there = await run('scripts/link.ts', ['--channel', 'c'], { LANDER_URL: 'https://get.example.com' });
    expect(there.stdout).toMatch(/^https:\/\/get\.example\.com\/landing\?d=/);
  }, 30_000);

  it('prints the address a phone reaches when HOST is set', () => {
    expect(localOrigin({ HOST: '192.168.1.20', PORT: '8861' })).toBe('http://192.168.1.20:8861');
    expect(localOrigin({ HOST: '127.0.0.1' })).toBe('http://localhost:8787');
    // A wildcard is no address to type: this machine's own network address (or localhost without one).
    expect(reachableHost('0.0.0.0')).not.toBe('0.0.0.0');
    expect(localOrigin({ HOST: 'fd00::20' })).toBe('http://[fd00::20]:8787');
  });
});

describe('7d', () => {
  it('is the same 7 days, ending today, in stats, export and the console', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2001-01-01'), max: Date.parse('2999-12-31') }), (now) => {
        const today = utcDay(now);
        const console = defaultRange('UTC', now);
        expect(console.to).toBe(today);
        expect(daysIn(console.from, console.to)).toBe(7);
        expect(sinceDay('7d', today)).toBe(console.from);
        expect(firstDay('7d', now)).toBe(console.from);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('npm start on a phone', () => {
  it('prints the page, the console with its token, and with HOST the reachable address as a QR code', () => {
    const plain = startBanner({ PORT: '8861' });
    expect(plain).toContain('http://localhost:8861/landing');
    expect(plain).toContain(`http://localhost:8861/admin (token ${DEV_ADMIN_TOKEN})`);
    const phone = startBanner({ HOST: '192.168.1.20', PORT: '8861' });
    expect(phone).toContain('http://192.168.1.20:8861/landing');
    expect(phone).toContain(qrTerminal('http://192.168.1.20:8861/landing') ?? 'no QR code');
  });
});
