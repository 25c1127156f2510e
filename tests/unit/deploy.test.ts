import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { TOOL_ENV } from '../../scripts/lib/run.ts';

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

  it('says which worker each environment deploys, and the two are distinct', () => {
    const production = deploy('--env', 'production', '--dry-run');
    const development = deploy('--env', 'development', '--dry-run');
    expect(production.status).toBe(0);
    expect(development.status).toBe(0);
    expect(production.stdout).toContain('Deploying worker "lander" (production, LANDER_ENV=production)');
    expect(development.stdout).toContain('Deploying worker "lander-dev" (development, LANDER_ENV=development)');
  }, 60_000);
});
