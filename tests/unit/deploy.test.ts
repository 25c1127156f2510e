import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { ROOT, TOOL_ENV } from '../../scripts/lib/run.ts';

function deploy(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/deploy.ts', ...args], { encoding: 'utf8', env: TOOL_ENV });
}

describe('npm run deploy', () => {
  it('refuses to guess the environment', () => {
    const result = deploy();
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--env development or --env production');
  });

  it('refuses an environment it does not know', () => {
    const result = deploy('--env', 'staging');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('"staging"');
  });

  it('names the placeholder KV and D1 ids of production on a dry run', () => {
    const result = deploy('--env', 'production', '--dry-run');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('still has placeholder ids');
    expect(result.stdout).toContain('KV namespace "KV" id 00000000000000000000000000000000');
    expect(result.stdout).toContain('D1 database "lander-funnel" id 00000000-0000-0000-0000-000000000000');
  }, 60_000);

  it('refuses a production deploy while the ids are placeholders, and deploys nothing', () => {
    const result = deploy('--env', 'production');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('KV namespace "KV" id 00000000000000000000000000000000');
    expect(result.stderr).toContain('nothing was deployed');
  }, 60_000);

  it('says which worker each environment deploys, and the two are distinct', () => {
    const production = deploy('--env', 'production', '--dry-run');
    const development = deploy('--env', 'development', '--dry-run');
    expect(production.status).toBe(0);
    expect(development.status).toBe(0);
    expect(production.stdout).toContain('Deploying worker "lander" (production, LANDER_ENV=production)');
    expect(development.stdout).toContain('Deploying worker "lander-dev" (development, LANDER_ENV=development)');
  }, 60_000);

  it("uploads production's bundle minified, the bundle the worker-bundle budget measures (docs/benchmarks.md)", () => {
    expect(unstable_readConfig({ config: `${ROOT}wrangler.toml`, env: 'production' }).minify).toBe(true);
  });
});
