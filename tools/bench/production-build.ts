/**
 * The production build the bench serves (docs/benchmarks.md): the client build, then the worker bundle
 * as `wrangler deploy` would upload it, minified, for one wrangler.toml environment.
 */
import { runTool } from '../../scripts/lib/run.ts';

/** Builds dist/client and dist/worker (or `workerDir`) for `env` (`''` for the top level). */
export function buildProduction(env: string, workerDir = 'dist/worker'): void {
  runTool('vite', ['build', '--logLevel', 'warn']);
  runTool('wrangler', ['deploy', '--dry-run', '--outdir', workerDir, '--minify', '--env', env], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
