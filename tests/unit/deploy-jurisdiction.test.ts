/**
 * Where data lives, applied by the deploy (docs/privacy.md#where-data-lives): the dry run of
 * `npm run deploy` with each `JURISDICTION` — none, `eu`, `fedramp` — says the configuration it
 * deploys: D1 created in the jurisdiction, every R2 binding in it, the Durable Objects reached
 * through it; it refuses an R2 binding left outside, a jurisdiction it does not know, and a
 * retention out of its bounds, naming each, whether or not it is a dry run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, TOOL_ENV } from '../../scripts/lib/run.ts';

const TOML = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8');
const dir = mkdtempSync(join(ROOT, 'node_modules/.cache-deploy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of wrangler.toml beside the repository's, with production's variables and R2 bindings changed. */
function configWith({ vars = '', bucketJurisdiction }: { vars?: string; bucketJurisdiction?: string }): string {
  let text = TOML.replace('[env.production.vars]\n', `[env.production.vars]\n${vars}`);
  if (bucketJurisdiction) {
    text = text.replace(
      /(\[\[env\.production\.r2_buckets\]\]\n[^[]*?bucket_name = "[^"]+"\n)/g,
      `$1jurisdiction = "${bucketJurisdiction}"\n`,
    );
  }
  const file = join(dir, `wrangler-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, text);
  return file;
}

function dryRun(config: string, ...more: string[]) {
  return spawnSync(
    process.execPath,
    ['scripts/deploy.ts', '--env', 'production', '--dry-run', '--config', config, ...more],
    {
      encoding: 'utf8',
      env: TOOL_ENV,
      cwd: ROOT,
    },
  );
}

describe('npm run deploy: where data lives', () => {
  it('with no jurisdiction: D1, R2 and the Durable Objects in none', () => {
    const result = dryRun(configWith({}));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('JURISDICTION: none');
    expect(result.stdout).toContain(
      'D1 FUNNEL_DB (lander-funnel): no jurisdiction, fixed when created: wrangler d1 create lander-funnel\n',
    );
    expect(result.stdout).toContain('R2 EXPORTS (lander-exports): no jurisdiction');
    expect(result.stdout).toContain('Durable Objects ATTRIBUTION_LEDGER (AttributionLedger): no jurisdiction');
  }, 60_000);

  it.each(['eu', 'fedramp'])(
    'with JURISDICTION = "%s": D1 created there, every R2 binding there, the objects reached there',
    (where) => {
      const result = dryRun(configWith({ vars: `JURISDICTION = "${where}"\n`, bucketJurisdiction: where }));
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain(`JURISDICTION: ${where}`);
      expect(result.stdout).toContain(`wrangler d1 create lander-funnel --jurisdiction ${where}`);
      expect(result.stdout).toContain(`R2 EXPORTS (lander-exports): jurisdiction "${where}"`);
      expect(result.stdout).toContain(`R2 APK_PARENTS (lander-apk-parents): jurisdiction "${where}"`);
      for (const name of ['CLICK_BUCKETS', 'ATTRIBUTION_LEDGER', 'OPERATOR_LIMITS']) {
        expect(result.stdout).toMatch(
          new RegExp(`Durable Objects ${name} \\(\\w+\\): namespace.jurisdiction\\("${where}"\\)`),
        );
      }
    },
    60_000,
  );

  it('refuses R2 bindings left outside the jurisdiction, naming each and the fix', () => {
    const result = dryRun(configWith({ vars: 'JURISDICTION = "eu"\n' }));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'R2 bucket lander-exports (EXPORTS) has no jurisdiction but JURISDICTION is eu: add jurisdiction = "eu" to it in wrangler.toml, and create the bucket with wrangler r2 bucket create lander-exports --jurisdiction eu',
    );
    expect(result.stderr).toContain('R2 bucket lander-apk-parents (APK_PARENTS)');
    expect(result.stderr).toContain('Nothing was deployed.');
  }, 60_000);

  it('refuses a jurisdiction it does not know', () => {
    const result = dryRun(configWith({ vars: 'JURISDICTION = "EU-west"\n' }));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('JURISDICTION: "EU-west" is not one of eu, fedramp (or empty for none)');
  }, 60_000);

  it('refuses a retention out of its bounds, or one it does not know, naming the bounds', () => {
    const result = dryRun(configWith({ vars: `RETENTION = '{"visitors": 0, "webhooks": 365, "cookies": 3}'\n` }));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('RETENTION.visitors: 0 days is out of bounds; between 1 and 800 days');
    expect(result.stderr).toContain('RETENTION.webhooks: 365 days is out of bounds; between 2 and 90 days');
    expect(result.stderr).toContain('RETENTION.cookies: unknown; one of webhooks, visitors');
  }, 60_000);

  it('takes a retention within its bounds', () => {
    const result = dryRun(configWith({ vars: `RETENTION = '{"visitors": 90, "exports": 30}'\n` }));
    expect(result.status, result.stderr).toBe(0);
  }, 60_000);
});
